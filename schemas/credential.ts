import { z } from 'zod';
import { Id, Timestamp } from './common';
import { needsId, noId, pageNumber, pageSize } from './guards';

/**
 * Credentials of a project space (spec 3 "Credential: identifier, AK, SK, ID"; 7.5 credentials).
 * The SK is encrypted at rest, masked in every list and detail answer and revealed only by
 * GET /console/credentials/:credential_id/secret-key (owner and admin).
 *
 * UI metadata (`.meta`): `label`/`help`/`placeholder` are i18n keys, `widget` picks the form
 * widget, `order` the form order, `column` the table column (false: not a column).
 */

export const CREDENTIAL_PAGE_MAX = 1000;

/** Shown in place of a short secret (and of any database password). */
export const SECRET_MASK = '******';

/**
 * The masked form of a secret: first and last four characters around '****' when the secret has
 * at least 16 characters (so at most half of it shows), otherwise '******'. Sending the masked
 * value back on update keeps the stored secret.
 */
export function maskSecret(secret: string): string {
  if (!secret) return '';
  return secret.length >= 16 ? `${secret.slice(0, 4)}****${secret.slice(-4)}` : SECRET_MASK;
}

const REQUIRED = 'This form field is required!';

const identifier = z
  .string()
  .trim()
  .min(1, REQUIRED)
  .max(50, 'exceeds maximum length 50')
  .meta({ label: 'credential.identifier', placeholder: 'credential.identifierPlaceholder', widget: 'text', order: 1 });
const ak = z
  .string()
  .trim()
  .max(256, 'exceeds maximum length 256')
  .meta({ label: 'credential.ak', placeholder: 'credential.akPlaceholder', widget: 'text', order: 2 });
const sk = z
  .string()
  .trim()
  .min(1, REQUIRED)
  .max(1024, 'exceeds maximum length 1024')
  .meta({ label: 'credential.sk', placeholder: 'credential.skPlaceholder', widget: 'secret', order: 3 });
const credId = z
  .string()
  .trim()
  .max(256, 'exceeds maximum length 256')
  .meta({ label: 'credential.credId', placeholder: 'credential.credIdPlaceholder', widget: 'text', order: 4 });
const description = z
  .string()
  .trim()
  .max(500, 'exceeds maximum length 500')
  .meta({ label: 'credential.description', widget: 'textarea', order: 5 });

export const Credential = z
  .object({
    id: Id.meta({ column: false }),
    workspace_id: Id.meta({ column: false }),
    identifier: z.string().meta({ label: 'credential.identifier', column: { order: 1, width: 180 } }),
    ak: z.string().meta({ label: 'credential.ak', column: { order: 2, width: 200 } }),
    /** Masked (see maskSecret); the plain value only from the secret-key endpoint. */
    sk: z.string().meta({ label: 'credential.sk', widget: 'secret', column: { order: 3, width: 160 } }),
    /** "ID" in the spec. */
    cred_id: z.string().meta({ label: 'credential.credId', column: { order: 4, width: 160 } }),
    description: z.string().meta({ label: 'credential.description', column: { order: 5 } }),
    created_by: Id.meta({ column: false }),
    created_at: Timestamp.meta({ label: 'common.createdAt', widget: 'datetime', column: { order: 6, width: 170 } }),
    updated_at: Timestamp.meta({ label: 'common.updatedAt', widget: 'datetime', column: { order: 7, width: 170 } }),
  })
  .meta({ title: 'credential.title' });
export type Credential = z.infer<typeof Credential>;

export const CredentialListQuery = z.object({
  page: pageNumber,
  page_size: pageSize(CREDENTIAL_PAGE_MAX),
  /** Substring of the identifier, case-insensitive. */
  name: z.string().trim().max(64).optional().meta({ label: 'credential.identifier', widget: 'search' }),
});

export const CredentialCreateBody = z
  .object({ ...noId, identifier, ak: ak.default(''), sk, cred_id: credId.default(''), description: description.default('') })
  .strict();
export type CredentialCreateBody = z.input<typeof CredentialCreateBody>;

/** Fields left out stay; an `sk` equal to its masked form (as the list shows it) keeps the stored SK. */
export const CredentialUpdateBody = z
  .object({
    ...needsId,
    identifier: identifier.optional(),
    ak: ak.optional(),
    sk: sk.optional(),
    cred_id: credId.optional(),
    description: description.optional(),
  })
  .strict();
export type CredentialUpdateBody = z.input<typeof CredentialUpdateBody>;

export const CredentialSecret = z.object({ id: Id, sk: z.string() });
export type CredentialSecret = z.infer<typeof CredentialSecret>;
