import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { maskSecret, SECRET_MASK } from '../../../schemas/credential';
import { ErrorCode } from '../../../schemas/errors';
import type { PluginPackageManifest } from '../../../schemas/plugin-package';
import { secretFields, type PluginCredentials } from '../../../schemas/plugin-credentials';
import { NodeExecutionError, type PluginCredentialService } from '../../plugin-sdk/executor';
import type { ServerContext } from '../context';
import { pluginCredentials, pluginPackages } from '../db/schema';
import { AppError, badRequest, exists, notFoundOrForeign } from '../errors';
import { decryptSecret, encryptSecret } from '../security/secrets';

/**
 * Plugins' credentials, one set per tenant and installed plugin (issue 24). The values are checked
 * against the plugin's credentials schema (its manifest's JSON Schema), stored as one encrypted JSON
 * object, answered with the secrets masked, and given in clear only to the plugin's executors at run
 * time (`services.credentials`). Every call is bound to the caller's tenant: another tenant's set is
 * never read, changed or even seen to exist.
 */

type Values = Record<string, string | number | boolean | null>;
type Row = typeof pluginCredentials.$inferSelect;

const aad = (tenantId: string, pluginId: string) => `plugin.credentials:${tenantId}:${pluginId}`;

/** The installed plugin's credentials schema (null: it takes none); a missing plugin is VALIDATION-1000. */
export async function credentialsSchemaOf(ctx: ServerContext, pluginId: string): Promise<Record<string, unknown> | null> {
  const [row] = await ctx.db.select({ manifest: pluginPackages.manifest }).from(pluginPackages).where(eq(pluginPackages.id, pluginId));
  if (!row) throw notFoundOrForeign('Plugin', pluginId);
  return (row.manifest as unknown as PluginPackageManifest).credentials_schema ?? null;
}

async function rowOf(ctx: ServerContext, tenantId: string, pluginId: string): Promise<Row | undefined> {
  const [row] = await ctx.db.select().from(pluginCredentials).where(and(eq(pluginCredentials.tenantId, tenantId), eq(pluginCredentials.pluginId, pluginId)));
  return row;
}

const decrypt = (ctx: ServerContext, row: Row): Values => JSON.parse(decryptSecret(ctx.secretKey, row.valuesEnc, aad(row.tenantId, row.pluginId))) as Values;

function view(row: Row, values: Values, schema: Record<string, unknown> | null): PluginCredentials {
  const secrets = secretFields(schema);
  const shown: Values = {};
  for (const [k, v] of Object.entries(values)) shown[k] = secrets.includes(k) && typeof v === 'string' ? maskSecret(v) : v;
  return {
    plugin_id: row.pluginId,
    values: shown,
    secret_fields: secrets,
    updated_by: row.updatedBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * The values as the schema admits them: unknown properties refused, nulls and empty optional
 * strings left out, then the schema itself (types, required, lengths, enums). Field issues point at
 * `body/values/<name>` like every other VALIDATION-1000.
 */
function checked(schema: Record<string, unknown>, input: Values): Values {
  const props = (schema.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const unknown = Object.keys(input).filter((k) => !Object.prototype.hasOwnProperty.call(props, k));
  if (unknown.length) throw badRequest(`Unknown credential fields: ${unknown.join(', ')}`, unknown.map((k) => ({ path: `body/values/${k}`, message: 'unknown field', rule: 'unrecognized_keys' })));
  const values: Values = {};
  for (const [k, v] of Object.entries(input)) if (v !== null && !(v === '' && !required.has(k))) values[k] = v;
  let zodSchema: z.ZodType;
  try {
    zodSchema = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    throw new AppError(400, ErrorCode.PLUGIN_INCOMPATIBLE, "The plugin's credentials schema cannot be read");
  }
  const parsed = zodSchema.safeParse(values);
  if (!parsed.success) {
    throw badRequest(
      'Invalid credentials',
      // rule, origin and limit let the form say it in the user's language (src/kit/schema-form/server-errors.ts).
      parsed.error.issues.map((i) => {
        const { origin, minimum, maximum } = i as { origin?: unknown; minimum?: unknown; maximum?: unknown };
        const limit = maximum ?? minimum;
        return {
          path: ['body', 'values', ...i.path.map(String)].join('/'),
          message: i.message,
          rule: i.code,
          ...(typeof origin === 'string' ? { origin } : {}),
          ...(typeof limit === 'number' || typeof limit === 'bigint' ? { limit: Number(limit) } : {}),
        };
      }),
    );
  }
  return parsed.data as Values;
}

/** The schema, or PLUGIN-CREDENTIALS-NONE for a plugin that takes none. */
async function schemaFor(ctx: ServerContext, pluginId: string): Promise<Record<string, unknown>> {
  const schema = await credentialsSchemaOf(ctx, pluginId);
  if (!schema) throw new AppError(400, ErrorCode.PLUGIN_NO_CREDENTIALS, `The plugin ${pluginId} takes no credentials`);
  return schema;
}

export async function getPluginCredentials(ctx: ServerContext, tenantId: string, pluginId: string): Promise<PluginCredentials | null> {
  const schema = await credentialsSchemaOf(ctx, pluginId);
  const row = await rowOf(ctx, tenantId, pluginId);
  return row ? view(row, decrypt(ctx, row), schema) : null;
}

export async function createPluginCredentials(ctx: ServerContext, caller: { tenantId: string; username: string }, pluginId: string, input: Values): Promise<PluginCredentials> {
  const schema = await schemaFor(ctx, pluginId);
  if (await rowOf(ctx, caller.tenantId, pluginId)) throw exists(`This tenant has credentials for ${pluginId} already: change them instead`);
  const values = checked(schema, input);
  const inserted = await ctx.db
    .insert(pluginCredentials)
    .values({ tenantId: caller.tenantId, pluginId, valuesEnc: encryptSecret(ctx.secretKey, JSON.stringify(values), aad(caller.tenantId, pluginId)), updatedBy: caller.username })
    .onConflictDoNothing()
    .returning();
  // Two creates at once: the second finds the row the first wrote.
  if (!inserted.length) throw exists(`This tenant has credentials for ${pluginId} already: change them instead`);
  return view(inserted[0], values, schema);
}

/** Replaces the values; a secret sent back as its mask (or `******`) keeps the stored one. */
export async function updatePluginCredentials(ctx: ServerContext, caller: { tenantId: string; username: string }, pluginId: string, input: Values): Promise<PluginCredentials> {
  const schema = await schemaFor(ctx, pluginId);
  const row = await rowOf(ctx, caller.tenantId, pluginId);
  if (!row) throw notFoundOrForeign('Plugin credentials', pluginId);
  const stored = decrypt(ctx, row);
  const merged: Values = { ...input };
  for (const k of secretFields(schema)) {
    const old = stored[k];
    if (typeof old === 'string' && (merged[k] === SECRET_MASK || merged[k] === maskSecret(old))) merged[k] = old;
  }
  const values = checked(schema, merged);
  const [updated] = await ctx.db
    .update(pluginCredentials)
    .set({ valuesEnc: encryptSecret(ctx.secretKey, JSON.stringify(values), aad(caller.tenantId, pluginId)), updatedBy: caller.username, updatedAt: new Date() })
    .where(and(eq(pluginCredentials.tenantId, caller.tenantId), eq(pluginCredentials.pluginId, pluginId)))
    .returning();
  if (!updated) throw notFoundOrForeign('Plugin credentials', pluginId);
  return view(updated, values, schema);
}

export async function deletePluginCredentials(ctx: ServerContext, tenantId: string, pluginId: string): Promise<void> {
  await credentialsSchemaOf(ctx, pluginId);
  const gone = await ctx.db
    .delete(pluginCredentials)
    .where(and(eq(pluginCredentials.tenantId, tenantId), eq(pluginCredentials.pluginId, pluginId)))
    .returning({ id: pluginCredentials.pluginId });
  if (!gone.length) throw notFoundOrForeign('Plugin credentials', pluginId);
}

/** The code an executor gets when it asks for another plugin's credentials (or for any, unbound). */
export const FOREIGN_CREDENTIALS = 'PLUGIN-CREDENTIALS-FOREIGN';

const ownerOf = (ctx: ServerContext, kind: string) => ctx.plugins.packages().find((p) => p.state === 'active' && p.plugins.some((q) => q.kind === kind));

/**
 * `services.credentials` for one run: the run's tenant's credentials of the plugin that defines a
 * node kind, in clear (null when that tenant has set none, or the kind is a built-in one). The
 * engine binds it to each node's kind (`forExecutor`): an executor then gets its own plugin's set
 * only, and asking for a kind of another plugin fails with PLUGIN-CREDENTIALS-FOREIGN (the values
 * of one plugin are never handed to another's code). Unbound, it answers no kind at all. The
 * secrets then live in the executor's hands: runs mask only the flow's own secret variables.
 */
export function createPluginCredentialService(ctx: ServerContext, tenantId: string): PluginCredentialService {
  const refuse = (kind: string, caller: string | null) =>
    new NodeExecutionError(FOREIGN_CREDENTIALS, caller ? `The node kind "${caller}" may not read the credentials of "${kind}": they belong to another plugin` : `No executor asked for the credentials of "${kind}"`);
  return {
    async forKind(kind) {
      throw refuse(kind, null);
    },
    forExecutor(caller) {
      return {
        async forKind(kind) {
          const pkg = ownerOf(ctx, kind);
          if (!pkg) return null;
          // The owner is looked up at call time: an upgrade between runs keeps the binding right.
          if (ownerOf(ctx, caller)?.id !== pkg.id) throw refuse(kind, caller);
          return pluginCredentialValues(ctx, tenantId, pkg.id);
        },
      };
    },
  };
}

/** A plugin's values for a tenant, in clear (null when none are set): for its own code only. */
export async function pluginCredentialValues(ctx: ServerContext, tenantId: string, pluginId: string): Promise<Record<string, string | number | boolean | null> | null> {
  const row = await rowOf(ctx, tenantId, pluginId);
  return row ? decrypt(ctx, row) : null;
}
