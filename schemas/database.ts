import { z } from 'zod';
import { Id, Timestamp } from './common';
import { needsId, noId, pageNumber, pageSize } from './guards';

/**
 * External databases of a project space (spec 3 "Database: type, name, account, password, host,
 * port, remark, SID (Oracle only), detection status"; 5 "query upper limit 1 to 1000"; 7.5
 * databases; 9 types). The password is encrypted at rest, shown masked, and revealed only by
 * GET /console/databases/:database_id/password (owner and admin).
 *
 * UI metadata (`.meta`): `label`/`help`/`placeholder` are i18n keys, `widget` picks the form
 * widget, `options` the choices of a select, `order` the form order, `visibleWhen` a condition on
 * another field, `column` the table column (false: not a column).
 */

export const DATABASE_TYPES = ['mysql', 'oracle', 'sqlserver', 'postgresql', 'clickhouse', 'dm'] as const;
export const DatabaseType = z.enum(DATABASE_TYPES);
export type DatabaseType = z.infer<typeof DatabaseType>;

/** The port a new database of each type starts with (ClickHouse over HTTP). */
export const DEFAULT_PORTS: Record<DatabaseType, number> = {
  mysql: 3306,
  oracle: 1521,
  sqlserver: 1433,
  postgresql: 5432,
  clickhouse: 8123,
  dm: 5236,
};

export const DATABASE_PAGE_MAX = 1000;
export const QUERY_LIMIT_MIN = 1;
export const QUERY_LIMIT_MAX = 1000;
export const QUERY_LIMIT_DEFAULT = 100;

/** Detection status: 'detecting' until the first check finishes, then the last check's outcome. */
export const DetectionStatus = z.enum(['detecting', 'success', 'failed']);
export type DetectionStatus = z.infer<typeof DetectionStatus>;

/**
 * What a connection check found, for translation on screen (the message is English):
 * ok; unreachable (no database answered: refused, reset, timed out, or something else behind the
 * port; one answer for all, so a check is no port scanner); host_not_found (name does not resolve);
 * auth_failed (account or password); database_missing (database, schema, SID or service unknown);
 * not_allowed (the server's network policy refuses the host: nothing was tried); timeout and error
 * (earlier checks recorded them; checks no longer answer them).
 */
export const CheckCode = z.enum(['ok', 'unreachable', 'host_not_found', 'timeout', 'auth_failed', 'database_missing', 'not_allowed', 'error']);
export type CheckCode = z.infer<typeof CheckCode>;

const REQUIRED = 'This form field is required!';
const HOSTNAME_RE = /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;
const IPV4_RE = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const ipv6 = z.ipv6();

/** A host name or an IP address (IPv6 without brackets); never a URL, never with a port. */
export function isDatabaseHost(host: string): boolean {
  if (IPV4_RE.test(host)) return true;
  if (host.includes(':')) return ipv6.safeParse(host).success;
  // All-numeric dotted names that are not valid IPv4 addresses are typos, not host names.
  if (/^[\d.]+$/.test(host)) return false;
  return HOSTNAME_RE.test(host);
}

const name = z
  .string()
  .trim()
  .min(1, REQUIRED)
  .max(50, 'exceeds maximum length 50')
  .meta({ label: 'database.name', placeholder: 'database.namePlaceholder', widget: 'text', order: 1 });
const type = DatabaseType.meta({
  label: 'database.type',
  widget: 'select',
  options: DATABASE_TYPES.map((value) => ({ value, label: `database.types.${value}` })),
  order: 2,
});
const host = z
  .string()
  .trim()
  .min(1, REQUIRED)
  .max(253, 'exceeds maximum length 253')
  .refine(isDatabaseHost, 'Enter a host name or an IP address (no scheme, path or port)')
  .meta({ label: 'database.host', placeholder: 'database.hostPlaceholder', widget: 'text', order: 3 });
const port = z
  .number()
  .int()
  .min(1, 'The port must be between 1 and 65535')
  .max(65535, 'The port must be between 1 and 65535')
  .meta({ label: 'database.port', help: 'database.portHelp', widget: 'number', order: 4 });
const account = z
  .string()
  .trim()
  .min(1, REQUIRED)
  .max(128, 'exceeds maximum length 128')
  .meta({ label: 'database.account', widget: 'text', order: 5 });
const password = z
  .string()
  .max(256, 'exceeds maximum length 256')
  .meta({ label: 'database.password', widget: 'secret', order: 6 });
const database = z
  .string()
  .trim()
  .max(128, 'exceeds maximum length 128')
  .refine((v) => !/[\s;'"`\\]/.test(v), 'The database name must not contain spaces, quotes, backslashes or semicolons')
  .meta({ label: 'database.database', help: 'database.databaseHelp', widget: 'text', order: 7, visibleWhen: { field: 'type', notIn: ['oracle'] } });
const sid = z
  .string()
  .trim()
  .max(64, 'exceeds maximum length 64')
  .refine((v) => v === '' || /^[A-Za-z][A-Za-z0-9_$#.]*$/.test(v), 'The SID may hold letters, digits and _ $ # . only')
  .meta({ label: 'database.sid', widget: 'text', order: 8, visibleWhen: { field: 'type', in: ['oracle'] } });
const remark = z
  .string()
  .trim()
  .max(500, 'exceeds maximum length 500')
  .meta({ label: 'database.remark', widget: 'textarea', order: 10 });
const queryLimit = z
  .number()
  .int()
  .min(QUERY_LIMIT_MIN, 'Database query upper limit 1 to 1000')
  .max(QUERY_LIMIT_MAX, 'Database query upper limit 1 to 1000')
  .meta({ label: 'database.queryLimit', help: 'database.queryLimitHelp', widget: 'number', order: 9 });

interface SidFields {
  type?: DatabaseType;
  sid?: string;
  database?: string;
}

/**
 * The SID belongs to Oracle only: required for oracle, refused for every other type; Oracle is
 * reached by SID, so `database` stays empty for it. Applied to create and check bodies here, and to
 * the merged row on update by the service.
 */
export function sidIssues(b: SidFields): { path: string; message: string }[] {
  if (!b.type) return [];
  if (b.type === 'oracle') {
    const out: { path: string; message: string }[] = [];
    if (!b.sid) out.push({ path: 'sid', message: 'The SID is required for Oracle' });
    if (b.database) out.push({ path: 'database', message: 'Oracle is reached by SID; leave the database empty' });
    return out;
  }
  return b.sid ? [{ path: 'sid', message: 'The SID applies to Oracle only' }] : [];
}

const sidRule = (b: SidFields, ctx: z.RefinementCtx) => {
  for (const i of sidIssues(b)) ctx.addIssue({ code: 'custom', path: [i.path], message: i.message });
};

const connectionFields = {
  type,
  host,
  /** Left out: DEFAULT_PORTS of the type. */
  port: port.optional(),
  account,
  password: password.default(''),
  database: database.default(''),
  sid: sid.default(''),
};

export const DatabaseCreateBody = z
  .object({
    ...noId,
    name,
    ...connectionFields,
    remark: remark.default(''),
    query_limit: queryLimit.default(QUERY_LIMIT_DEFAULT),
  })
  .strict()
  .superRefine(sidRule);
export type DatabaseCreateBody = z.input<typeof DatabaseCreateBody>;

/**
 * Fields left out stay. A password left out or equal to SECRET_MASK keeps the stored one. Changing
 * any connection field (type, host, port, account, password, database, sid) starts a new check.
 */
export const DatabaseUpdateBody = z
  .object({
    ...needsId,
    name: name.optional(),
    type: type.optional(),
    host: host.optional(),
    port: port.optional(),
    account: account.optional(),
    password: password.optional(),
    database: database.optional(),
    sid: sid.optional(),
    remark: remark.optional(),
    query_limit: queryLimit.optional(),
  })
  .strict();
export type DatabaseUpdateBody = z.input<typeof DatabaseUpdateBody>;

/**
 * Settings to try before (or while) saving. With the `id` of a saved database, a password left
 * out or equal to SECRET_MASK means that database's stored password.
 */
export const DatabaseCheckBody = z
  .object({
    id: Id.optional(),
    name: name.optional(),
    ...connectionFields,
    password: password.optional(),
    remark: remark.optional(),
    query_limit: queryLimit.optional(),
  })
  .strict()
  .superRefine(sidRule);
export type DatabaseCheckBody = z.input<typeof DatabaseCheckBody>;

export const CheckResult = z.object({
  status: z.enum(['success', 'failed']),
  code: CheckCode,
  /** An English sentence naming the cause ('Authentication failed for user …'). */
  message: z.string(),
  /** The driver's own message, for diagnosis (empty on success). */
  detail: z.string(),
  elapsed_ms: z.number().int(),
});
export type CheckResult = z.infer<typeof CheckResult>;

export const Database = z
  .object({
    id: Id.meta({ column: false }),
    workspace_id: Id.meta({ column: false }),
    name: z.string().meta({ label: 'database.name', column: { order: 1, width: 180 } }),
    type: DatabaseType.meta({ label: 'database.type', widget: 'select', column: { order: 2, width: 110 } }),
    host: z.string().meta({ label: 'database.host', column: { order: 3, width: 180 } }),
    port: z.number().int().meta({ label: 'database.port', column: { order: 4, width: 80 } }),
    account: z.string().meta({ label: 'database.account', column: { order: 5, width: 140 } }),
    /** SECRET_MASK when a password is stored, '' when none; the plain value only from the password endpoint. */
    password: z.string().meta({ label: 'database.password', widget: 'secret', column: false }),
    database: z.string().meta({ label: 'database.database', column: { order: 6, width: 140 } }),
    sid: z.string().meta({ label: 'database.sid', column: false }),
    remark: z.string().meta({ label: 'database.remark', column: { order: 9 } }),
    query_limit: z.number().int().meta({ label: 'database.queryLimit', column: false }),
    status: DetectionStatus.meta({ label: 'database.status', widget: 'status', column: { order: 7, width: 110 } }),
    /** The last check's code ('' until one finished). */
    status_code: z.union([CheckCode, z.literal('')]).meta({ column: false }),
    status_message: z.string().meta({ label: 'database.statusMessage', column: { order: 8, tooltipOf: 'status' } }),
    checked_at: Timestamp.nullable().meta({ label: 'database.checkedAt', widget: 'datetime', column: false }),
    created_by: Id.meta({ column: false }),
    created_at: Timestamp.meta({ label: 'common.createdAt', widget: 'datetime', column: { order: 10, width: 170 } }),
    updated_at: Timestamp.meta({ label: 'common.updatedAt', widget: 'datetime', column: false }),
  })
  .meta({ title: 'database.title' });
export type Database = z.infer<typeof Database>;

export const DatabaseListQuery = z.object({
  page: pageNumber,
  page_size: pageSize(DATABASE_PAGE_MAX),
  /** Substring of the name, case-insensitive. */
  name: z.string().trim().max(64).optional().meta({ label: 'database.name', widget: 'search' }),
  type: DatabaseType.optional().meta({ label: 'database.type', widget: 'select' }),
});

export const DatabasePassword = z.object({ id: Id, password: z.string() });
export type DatabasePassword = z.infer<typeof DatabasePassword>;
