import { randomUUID } from 'node:crypto';
import { and, desc, eq, ilike, ne, sql, type SQL } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { requireMembership, UUID_RE } from '../context';
import { externalDatabases } from '../db/schema';
import { badRequest, exists, notFoundOrForeign } from '../errors';
import { decryptSecret, encryptSecret } from '../security/secrets';
import { OutboundRefusedError } from '../security/outbound-policy';
import { SECRET_MASK } from '../../../schemas/credential';
import {
  type CheckResult,
  type Database,
  type DatabaseType,
  DEFAULT_PORTS,
  sidIssues,
} from '../../../schemas/database';
import { checkConnection, type ConnectionSettings, DriverUnavailableError } from './db-drivers';
import { contains, isUniqueViolation, lockNames, MANAGERS, nothingToChange, page, type Scope, type Tx } from './workspace-resources';

/**
 * External databases of a workspace (spec 3, 5, 7.5, 9). Any member lists, reads and re-checks a
 * saved database; owner and admin create, change, delete, check unsaved settings (the server
 * connects where they say) and reveal the password. The password is stored only encrypted
 * (AES-256-GCM, bound to the row's id) and shown as SECRET_MASK.
 *
 * Detection status: a new database, or one whose connection settings changed, is 'detecting'
 * while a check runs in the background; the check then records 'success' or 'failed' with its
 * code and message. `settings_version` makes sure a slow check of old settings cannot overwrite
 * the status of newer ones.
 */

type Row = typeof externalDatabases.$inferSelect;

const passwordAad = (id: string) => `database.password:${id}`;
const plainPassword = (ctx: ServerContext, r: Row) => decryptSecret(ctx.secretKey, r.passwordEnc, passwordAad(r.id));

function toDatabase(ctx: ServerContext, r: Row): Database {
  return {
    id: r.id,
    workspace_id: r.workspaceId,
    name: r.name,
    type: r.type,
    host: r.host,
    port: r.port,
    account: r.account,
    password: plainPassword(ctx, r) ? SECRET_MASK : '',
    database: r.database,
    sid: r.sid,
    remark: r.remark,
    query_limit: r.queryLimit,
    status: r.status,
    status_code: r.statusCode as Database['status_code'],
    status_message: r.statusMessage,
    checked_at: r.checkedAt ? r.checkedAt.toISOString() : null,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

const inScope = (s: Scope) => and(eq(externalDatabases.workspaceId, s.workspaceId), eq(externalDatabases.tenantId, s.caller.tenantId));

async function rowOf(ctx: ServerContext, s: Scope, id: string): Promise<Row> {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Database', id);
  const [row] = await ctx.db.select().from(externalDatabases).where(and(eq(externalDatabases.id, id), inScope(s)));
  if (!row) throw notFoundOrForeign('Database', id);
  return row;
}

async function assertNameFree(tx: Tx, s: Scope, name: string, exceptId?: string) {
  await lockNames(tx, 'database', s.workspaceId);
  const conds: SQL[] = [eq(externalDatabases.workspaceId, s.workspaceId), sql`lower(${externalDatabases.name}) = lower(${name})`];
  if (exceptId) conds.push(ne(externalDatabases.id, exceptId));
  const [hit] = await tx.select({ id: externalDatabases.id }).from(externalDatabases).where(and(...conds)).limit(1);
  if (hit) throw exists(`A database named '${name}' already exists in this project space`);
}

const duplicate = (e: unknown) => {
  if (isUniqueViolation(e)) throw exists('A database with this name already exists in this project space');
  throw e;
};

/** A sid/database combination the type does not allow (update merges first): VALIDATION-1000. */
function assertSidRule(b: { type: DatabaseType; sid: string; database: string }) {
  const issues = sidIssues(b);
  if (issues.length) {
    throw badRequest(
      issues.map((i) => i.message).join('; '),
      issues.map((i) => ({ path: `body/${i.path}`, message: i.message })),
    );
  }
}

// ---------------------------------------------------------------- checks

/** Checks running in the background (for tests and orderly shutdown). */
const running = new Set<Promise<void>>();

/** Waits for the background checks started so far. */
export async function settleChecks(): Promise<void> {
  while (running.size) await Promise.allSettled([...running]);
}

/**
 * Connects with the type's driver, to where the outbound policy allows (a refused destination is
 * OutboundRefusedError, NETWORK-1000, before any connection); a driver missing on this server is a
 * 400 for the caller.
 */
async function probe(ctx: ServerContext, s: ConnectionSettings, timeoutMs?: number): Promise<CheckResult> {
  try {
    return await checkConnection(s, { timeoutMs, policy: ctx.outbound });
  } catch (e) {
    if (e instanceof DriverUnavailableError) throw badRequest(e.message, { type: e.type });
    throw e;
  }
}

const settingsOf = (ctx: ServerContext, r: Row): ConnectionSettings => ({
  type: r.type,
  host: r.host,
  port: r.port,
  account: r.account,
  password: plainPassword(ctx, r),
  database: r.database,
  sid: r.sid,
});

/** Runs a check of the saved row and records it, unless the settings changed meanwhile. */
async function recordCheck(ctx: ServerContext, row: Row, timeoutMs?: number): Promise<void> {
  let result: CheckResult;
  try {
    result = await probe(ctx, settingsOf(ctx, row), timeoutMs);
  } catch (e) {
    // A saved database whose host the policy refuses (now) says so; the operator may open it later.
    const code = e instanceof OutboundRefusedError ? 'not_allowed' : 'error';
    result = { status: 'failed', code, message: (e as Error).message, detail: '', elapsed_ms: 0 };
  }
  await ctx.db
    .update(externalDatabases)
    .set({ status: result.status, statusCode: result.code, statusMessage: result.message, checkedAt: new Date() })
    .where(and(eq(externalDatabases.id, row.id), eq(externalDatabases.settingsVersion, row.settingsVersion)));
}

function checkInBackground(ctx: ServerContext, row: Row) {
  const p = recordCheck(ctx, row)
    .catch(() => {
      // The row was deleted or the server is closing: nothing to record.
    })
    .finally(() => running.delete(p));
  running.add(p);
}

// ---------------------------------------------------------------- endpoints

export async function listDatabases(
  ctx: ServerContext,
  s: Scope,
  q: { page: number; page_size: number; name?: string; type?: DatabaseType },
) {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const conds: SQL[] = [inScope(s)!];
  if (q.name) conds.push(ilike(externalDatabases.name, contains(q.name)));
  if (q.type) conds.push(eq(externalDatabases.type, q.type));
  const where = and(...conds);
  const [{ total }] = await ctx.db.select({ total: sql<number>`count(*)::int` }).from(externalDatabases).where(where);
  const rows = await ctx.db
    .select()
    .from(externalDatabases)
    .where(where)
    .orderBy(desc(externalDatabases.createdAt), desc(externalDatabases.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return page(
    rows.map((r) => toDatabase(ctx, r)),
    total,
    q,
  );
}

export async function getDatabase(ctx: ServerContext, s: Scope, id: string) {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  return toDatabase(ctx, await rowOf(ctx, s, id));
}

/**
 * A saved database's connection settings with the password in plain text, for the server's own use
 * only (GBI queries it): never part of an answer. Any member of the workspace (membership checked).
 */
export async function connectionOf(ctx: ServerContext, s: Scope, id: string): Promise<{ database: Database; settings: ConnectionSettings }> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const row = await rowOf(ctx, s, id);
  return { database: toDatabase(ctx, row), settings: settingsOf(ctx, row) };
}

export interface DatabaseInput {
  name: string;
  type: DatabaseType;
  host: string;
  port?: number;
  account: string;
  password: string;
  database: string;
  sid: string;
  remark: string;
  query_limit: number;
}

export async function createDatabase(ctx: ServerContext, s: Scope, input: DatabaseInput) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  assertSidRule(input);
  const id = randomUUID();
  await ctx.db
    .transaction(async (tx) => {
      await assertNameFree(tx, s, input.name);
      await tx.insert(externalDatabases).values({
        id,
        tenantId: s.caller.tenantId,
        workspaceId: s.workspaceId,
        name: input.name,
        type: input.type,
        host: input.host,
        port: input.port ?? DEFAULT_PORTS[input.type],
        account: input.account,
        passwordEnc: encryptSecret(ctx.secretKey, input.password, passwordAad(id)),
        database: input.database,
        sid: input.sid,
        remark: input.remark,
        queryLimit: input.query_limit,
        status: 'detecting',
        createdBy: s.caller.userId,
      });
    })
    .catch(duplicate);
  const row = await rowOf(ctx, s, id);
  checkInBackground(ctx, row);
  return toDatabase(ctx, row);
}

const CONNECTION_FIELDS = ['type', 'host', 'port', 'account', 'database', 'sid'] as const;

/**
 * Fields left out stay; a password left out or equal to SECRET_MASK keeps the stored one. When a
 * connection field changes, the status goes back to 'detecting' and a new check starts.
 */
export async function updateDatabase(ctx: ServerContext, s: Scope, input: { id: string } & Partial<DatabaseInput>) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const row = await rowOf(ctx, s, input.id);
  const { id: _id, ...fields } = input;
  if (Object.values(fields).every((v) => v === undefined)) throw nothingToChange();
  const merged = {
    type: input.type ?? row.type,
    host: input.host ?? row.host,
    port: input.port ?? row.port,
    account: input.account ?? row.account,
    database: input.database ?? row.database,
    sid: input.sid ?? row.sid,
  };
  assertSidRule(merged);
  const stored = plainPassword(ctx, row);
  const newPassword = input.password === undefined || input.password === SECRET_MASK ? undefined : input.password;
  const connectionChanged =
    CONNECTION_FIELDS.some((f) => merged[f] !== row[f]) || (newPassword !== undefined && newPassword !== stored);
  await ctx.db
    .transaction(async (tx) => {
      if (input.name !== undefined) await assertNameFree(tx, s, input.name, row.id);
      await tx
        .update(externalDatabases)
        .set({
          name: input.name,
          ...merged,
          passwordEnc: newPassword === undefined ? undefined : encryptSecret(ctx.secretKey, newPassword, passwordAad(row.id)),
          remark: input.remark,
          queryLimit: input.query_limit,
          ...(connectionChanged
            ? {
                status: 'detecting' as const,
                statusCode: '',
                statusMessage: '',
                checkedAt: null,
                settingsVersion: sql`${externalDatabases.settingsVersion} + 1`,
              }
            : {}),
          updatedAt: new Date(),
        })
        .where(and(eq(externalDatabases.id, row.id), inScope(s)));
    })
    .catch(duplicate);
  const updated = await rowOf(ctx, s, row.id);
  if (connectionChanged) checkInBackground(ctx, updated);
  return toDatabase(ctx, updated);
}

export async function deleteDatabase(ctx: ServerContext, s: Scope, id: string) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const row = await rowOf(ctx, s, id);
  await ctx.db.delete(externalDatabases).where(and(eq(externalDatabases.id, row.id), inScope(s)));
}

/** Owner and admin only: the plain password. */
export async function revealPassword(ctx: ServerContext, s: Scope, id: string) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const row = await rowOf(ctx, s, id);
  return { id: row.id, password: plainPassword(ctx, row) };
}

/** Any member: checks the saved settings now and records the outcome. */
export async function recheckDatabase(ctx: ServerContext, s: Scope, id: string, timeoutMs?: number) {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const row = await rowOf(ctx, s, id);
  await recordCheck(ctx, row, timeoutMs);
  return toDatabase(ctx, await rowOf(ctx, s, id));
}

export interface CheckInput {
  id?: string;
  type: DatabaseType;
  host: string;
  port?: number;
  account: string;
  password?: string;
  database: string;
  sid: string;
}

/**
 * Owner and admin: tries settings that are not saved (yet). With the id of a saved database of
 * this workspace, a password left out or equal to SECRET_MASK is that database's password.
 */
export async function checkSettings(ctx: ServerContext, s: Scope, input: CheckInput, timeoutMs?: number) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  assertSidRule(input);
  let password = input.password;
  if (password === undefined || (input.id && password === SECRET_MASK)) {
    password = input.id ? plainPassword(ctx, await rowOf(ctx, s, input.id)) : '';
  }
  return probe(
    ctx,
    {
      type: input.type,
      host: input.host,
      port: input.port ?? DEFAULT_PORTS[input.type],
      account: input.account,
      password,
      database: input.database,
      sid: input.sid,
    },
    timeoutMs,
  );
}
