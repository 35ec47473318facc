import { z } from 'zod';

/**
 * System › Tools (spec 7.4 admin tools): the tools this server offers every project space, the
 * built-in ones (provider `builtin`) and those installed plugins list, with their credentials. A
 * tool is named `provider/name`; a plugin tool's credentials are its plugin's (one set per tenant).
 */

/** `builtin/calculator`, `weft.signer/sign_text`. */
export const AdminToolId = z.string().min(3).max(200).regex(/^[a-z0-9][a-z0-9.-]*\/[A-Za-z0-9_.-]+$/, 'provider/name');

export const AdminToolQuery = z.object({ tool_id: AdminToolId });

export const AdminToolSource = z.enum(['builtin', 'plugin']);

export const AdminTool = z.object({
  id: z.string(),
  provider: z.string(),
  name: z.string(),
  description: z.string(),
  source: AdminToolSource,
  /** The plugin that lists it (null for built-ins). */
  plugin: z.object({ id: z.string(), name: z.string(), version: z.string(), state: z.enum(['active', 'failed']) }).nullable(),
  /** Whether it takes credentials (its plugin has a credentials schema). */
  needs_credentials: z.boolean(),
  /** Whether the caller's tenant has set them. */
  credentials_set: z.boolean(),
});
export type AdminTool = z.infer<typeof AdminTool>;

export const AdminToolDetail = AdminTool.extend({
  /** JSON Schema of the arguments a model fills in (null when the plugin does not say). */
  parameters: z.record(z.string(), z.unknown()).nullable(),
  credentials_schema: z.record(z.string(), z.unknown()).nullable(),
});
export type AdminToolDetail = z.infer<typeof AdminToolDetail>;
