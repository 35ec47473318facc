/** CONSOLE credentials group (spec 3 "Credential", 7.5): the project space's credentials; the SK only through its endpoint. */
import { z } from 'zod';
import { page } from '../../schemas/common';
import { Credential, CredentialCreateBody, CredentialListQuery, CredentialSecret, CredentialUpdateBody } from '../../schemas/credential';
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const base = '/api/v1/console/credentials';
export const credentialEndpoints = {
  list: { method: 'GET', url: base, name: 'credentials.list' },
  create: { method: 'POST', url: base, name: 'credentials.create' },
  update: { method: 'PUT', url: base, name: 'credentials.update' },
  get: { method: 'GET', url: `${base}/:credential_id`, name: 'credentials.get' },
  remove: { method: 'DELETE', url: `${base}/:credential_id`, name: 'credentials.remove' },
  secretKey: { method: 'GET', url: `${base}/:credential_id/secret-key`, name: 'credentials.secretKey' },
} as const satisfies Record<string, Endpoint>;

export type CredentialListParams = Partial<z.input<typeof CredentialListQuery>>;
export type CredentialCreateInput = z.input<typeof CredentialCreateBody>;
export type CredentialUpdateInput = z.input<typeof CredentialUpdateBody>;

/** Credentials of the session's project space (or `opts.workspaceId`), newest first, SK masked. */
export const listCredentials = (q: CredentialListParams = {}, opts?: Opts) => call(page(Credential), credentialEndpoints.list, { ...q }, opts);

/** Creates a credential (owner, admin). */
export const createCredential = (body: CredentialCreateInput, opts?: Opts) => call(Credential, credentialEndpoints.create, body, opts);

/** Changes a credential (owner, admin); an SK left out or sent masked keeps the stored one. */
export const updateCredential = (body: CredentialUpdateInput, opts?: Opts) => call(Credential, credentialEndpoints.update, body, opts);

/** One credential, SK masked. */
export const getCredential = (credential_id: string, opts?: Opts) => call(Credential, credentialEndpoints.get, { credential_id }, opts);

/** Deletes a credential (owner, admin). */
export const deleteCredential = (credential_id: string, opts?: Opts) => call(z.null(), credentialEndpoints.remove, { credential_id }, opts);

/** The plain SK (owner, admin; others get 403). */
export const getCredentialSecret = (credential_id: string, opts?: Opts) => call(CredentialSecret, credentialEndpoints.secretKey, { credential_id }, opts);
