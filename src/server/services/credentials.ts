import { randomUUID } from 'node:crypto';
import { and, desc, eq, ilike, ne, sql, type SQL } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { requireMembership, UUID_RE } from '../context';
import { credentials } from '../db/schema';
import { exists, notFoundOrForeign } from '../errors';
import { decryptSecret, encryptSecret } from '../security/secrets';
import { type Credential, maskSecret } from '../../../schemas/credential';
import { contains, isUniqueViolation, lockNames, MANAGERS, nothingToChange, page, type Scope, type Tx } from './workspace-resources';

/**
 * Credentials of a workspace (spec 3, 7.5). Any member lists and reads them with the SK masked;
 * owner and admin create, change, delete and reveal the SK. The SK is stored only encrypted
 * (AES-256-GCM, bound to the credential's id).
 */

type Row = typeof credentials.$inferSelect;

const skAad = (id: string) => `credential.sk:${id}`;

function toCredential(ctx: ServerContext, r: Row): Credential {
  return {
    id: r.id,
    workspace_id: r.workspaceId,
    identifier: r.identifier,
    ak: r.ak,
    sk: maskSecret(decryptSecret(ctx.secretKey, r.skEnc, skAad(r.id))),
    cred_id: r.credId,
    description: r.description,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

const inScope = (s: Scope) => and(eq(credentials.workspaceId, s.workspaceId), eq(credentials.tenantId, s.caller.tenantId));

/** The credential of this workspace, or VALIDATION-1000 (missing, malformed or another workspace's). */
async function rowOf(ctx: ServerContext, s: Scope, id: string): Promise<Row> {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Credential', id);
  const [row] = await ctx.db.select().from(credentials).where(and(eq(credentials.id, id), inScope(s)));
  if (!row) throw notFoundOrForeign('Credential', id);
  return row;
}

async function assertIdentifierFree(tx: Tx, s: Scope, identifier: string, exceptId?: string) {
  await lockNames(tx, 'credential', s.workspaceId);
  const conds: SQL[] = [eq(credentials.workspaceId, s.workspaceId), sql`lower(${credentials.identifier}) = lower(${identifier})`];
  if (exceptId) conds.push(ne(credentials.id, exceptId));
  const [hit] = await tx.select({ id: credentials.id }).from(credentials).where(and(...conds)).limit(1);
  if (hit) throw exists(`A credential named '${identifier}' already exists in this project space`);
}

const duplicate = (e: unknown) => {
  if (isUniqueViolation(e)) throw exists('A credential with this identifier already exists in this project space');
  throw e;
};

export async function listCredentials(ctx: ServerContext, s: Scope, q: { page: number; page_size: number; name?: string }) {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const conds: SQL[] = [inScope(s)!];
  if (q.name) conds.push(ilike(credentials.identifier, contains(q.name)));
  const where = and(...conds);
  const [{ total }] = await ctx.db.select({ total: sql<number>`count(*)::int` }).from(credentials).where(where);
  const rows = await ctx.db
    .select()
    .from(credentials)
    .where(where)
    .orderBy(desc(credentials.createdAt), desc(credentials.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return page(
    rows.map((r) => toCredential(ctx, r)),
    total,
    q,
  );
}

export async function getCredential(ctx: ServerContext, s: Scope, id: string) {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  return toCredential(ctx, await rowOf(ctx, s, id));
}

export interface CredentialInput {
  identifier: string;
  ak: string;
  sk: string;
  cred_id: string;
  description: string;
}

export async function createCredential(ctx: ServerContext, s: Scope, input: CredentialInput) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const id = randomUUID();
  await ctx.db
    .transaction(async (tx) => {
      await assertIdentifierFree(tx, s, input.identifier);
      await tx.insert(credentials).values({
        id,
        tenantId: s.caller.tenantId,
        workspaceId: s.workspaceId,
        identifier: input.identifier,
        ak: input.ak,
        skEnc: encryptSecret(ctx.secretKey, input.sk, skAad(id)),
        credId: input.cred_id,
        description: input.description,
        createdBy: s.caller.userId,
      });
    })
    .catch(duplicate);
  return toCredential(ctx, await rowOf(ctx, s, id));
}

/** Fields left out stay; an SK left out or equal to its masked form keeps the stored SK. */
export async function updateCredential(ctx: ServerContext, s: Scope, input: { id: string } & Partial<CredentialInput>) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const row = await rowOf(ctx, s, input.id);
  const { identifier, ak, sk, cred_id, description } = input;
  if ([identifier, ak, sk, cred_id, description].every((v) => v === undefined)) throw nothingToChange();
  const storedSk = decryptSecret(ctx.secretKey, row.skEnc, skAad(row.id));
  const newSk = sk === undefined || sk === maskSecret(storedSk) ? undefined : sk;
  await ctx.db
    .transaction(async (tx) => {
      if (identifier !== undefined) await assertIdentifierFree(tx, s, identifier, row.id);
      await tx
        .update(credentials)
        .set({
          identifier,
          ak,
          skEnc: newSk === undefined ? undefined : encryptSecret(ctx.secretKey, newSk, skAad(row.id)),
          credId: cred_id,
          description,
          updatedAt: new Date(),
        })
        .where(and(eq(credentials.id, row.id), inScope(s)));
    })
    .catch(duplicate);
  return toCredential(ctx, await rowOf(ctx, s, row.id));
}

export async function deleteCredential(ctx: ServerContext, s: Scope, id: string) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const row = await rowOf(ctx, s, id);
  await ctx.db.delete(credentials).where(and(eq(credentials.id, row.id), inScope(s)));
}

/** Owner and admin only: the plain SK. */
export async function revealSecretKey(ctx: ServerContext, s: Scope, id: string) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const row = await rowOf(ctx, s, id);
  return { id: row.id, sk: decryptSecret(ctx.secretKey, row.skEnc, skAad(row.id)) };
}
