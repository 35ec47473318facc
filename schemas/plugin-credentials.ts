import { z } from 'zod';

/**
 * A tenant's credentials for an installed plugin (issue 24; spec 7.3 "plugin credentials" and 7.4
 * admin tools' credentials). The plugin's manifest carries them as a JSON Schema
 * (`credentials_schema`, made by `npm run plugin:pack` from the folder's `credentials.ts`); a
 * property marked `secret: true` (zod `.meta({ secret: true })`), `writeOnly: true` or
 * `format: 'password'` is a secret: stored encrypted with the rest and answered masked.
 */

/** One value of a credentials form (the schemas describe flat objects of scalars). */
export const CredentialValue = z.union([z.string().max(8000), z.number(), z.boolean(), z.null()]);

/** The body of POST and PUT: the values. On PUT a secret sent back masked keeps its stored value. */
export const PluginCredentialsBody = z.object({
  values: z.record(z.string().min(1).max(64), CredentialValue).refine((v) => Object.keys(v).length <= 50, 'at most 50 values'),
});
export type PluginCredentialsBody = z.infer<typeof PluginCredentialsBody>;

/** Stored credentials as answered: secrets masked, never in clear. */
export const PluginCredentials = z.object({
  plugin_id: z.string(),
  values: z.record(z.string(), CredentialValue),
  /** The properties whose values are masked. */
  secret_fields: z.array(z.string()),
  updated_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PluginCredentials = z.infer<typeof PluginCredentials>;

/** What GET credentials answers: the stored set, or null when this tenant has none. */
export const PluginCredentialsAnswer = PluginCredentials.nullable();

/** The plugin's credentials schema (a JSON Schema object), or null when it takes none. */
export const CredentialsSchemaAnswer = z.object({
  plugin_id: z.string(),
  schema: z.record(z.string(), z.unknown()).nullable(),
});
export type CredentialsSchemaAnswer = z.infer<typeof CredentialsSchemaAnswer>;

/** Whether a JSON Schema property holds a secret (see the file comment). */
export function isSecretProperty(p: unknown): boolean {
  if (!p || typeof p !== 'object') return false;
  const q = p as { secret?: unknown; writeOnly?: unknown; format?: unknown };
  return q.secret === true || q.writeOnly === true || q.format === 'password';
}

/** The secret properties of a credentials schema. */
export function secretFields(schema: Record<string, unknown> | null): string[] {
  const props = (schema?.properties ?? {}) as Record<string, unknown>;
  return Object.keys(props).filter((k) => isSecretProperty(props[k]));
}
