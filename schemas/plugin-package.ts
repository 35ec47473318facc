import { z } from 'zod';

/**
 * Plugin packages (issue 24): one .tgz holding `manifest.json`, `server.mjs` (ESM: the kinds'
 * manifests and executors) and `browser.mjs` (ESM: the kinds' manifests and views). Made from a
 * plugin folder by `npm run plugin:pack -- <folder>` (scripts/plugin-pack.ts), installed by a super
 * admin through /admin/plugins (src/server/routes/admin/plugins.ts).
 */

/** A package id: lowercase words joined by '-' or '.', e.g. `weft.text-stats`. */
export const PluginId = z
  .string()
  .min(2)
  .max(100)
  .regex(/^[a-z0-9]+(?:[.-][a-z0-9]+)*$/, 'lowercase letters, digits, "." and "-"');

/** A version as major.minor.patch (an optional pre-release after '-'). */
export const SemVer = z.string().regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/, 'a version like 1.2.3');

export const PACKAGE_FORMAT = 1;

/** A tool a package declares (its plugin.json `tools`); the name is the one tool nodes and models use. */
export const PluginToolDeclaration = z.object({
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'letters, digits, "_" and "-", starting with a letter'),
  description: z.string().max(1000).default(''),
  /** JSON Schema of the arguments (an object); none: it takes no arguments. */
  parameters: z.record(z.string(), z.unknown()).default({ type: 'object', properties: {} }),
});
export type PluginToolDeclaration = z.infer<typeof PluginToolDeclaration>;

/** The package's `manifest.json`. */
export const PluginPackageManifest = z.object({
  format: z.literal(PACKAGE_FORMAT),
  id: PluginId,
  name: z.string().min(1).max(100),
  version: SemVer,
  author: z.string().max(100).default(''),
  description: z.string().max(1000).default(''),
  /** A lucide icon name, as node kinds name theirs. */
  icon: z.string().max(64).default('puzzle'),
  /** The node kinds the server bundle defines (checked when it loads). */
  kinds: z.array(z.object({ kind: z.string().min(1).max(64), version: z.number().int().min(1) })).max(50),
  /**
   * Tools it provides: name, description and the JSON Schema of their arguments (a model fills it
   * in; calls are checked against it). Their code is in the server bundle and runs in the code
   * sandbox (src/server/tools/plugin-tools.ts).
   */
  tools: z.array(PluginToolDeclaration).max(50).default([]),
  /** The plugin's credentials as a JSON Schema (made from its zod schema); null when it needs none. */
  credentials_schema: z.record(z.string(), z.unknown()).nullable().default(null),
  /** The lowest Weft version it runs on. */
  min_weft_version: SemVer,
  /** SHA-256 (hex) of the bundles: server.mjs, a NUL byte, browser.mjs. */
  checksum: z.string().regex(/^[0-9a-f]{64}$/),
});
export type PluginPackageManifest = z.infer<typeof PluginPackageManifest>;

/** Whether an installed package runs: `failed` ones stay listed with the reason and are left out. */
export const PluginState = z.enum(['active', 'failed']);

export const InstalledPlugin = z.object({
  id: PluginId,
  name: z.string(),
  version: z.string(),
  author: z.string(),
  description: z.string(),
  icon: z.string(),
  kinds: z.array(z.object({ kind: z.string(), version: z.number() })),
  tools: z.array(z.object({ name: z.string(), description: z.string() })),
  min_weft_version: z.string(),
  checksum: z.string(),
  state: PluginState,
  /** Why it failed to load (state `failed`), else null. */
  error: z.string().nullable(),
  installed_by: z.string(),
  installed_at: z.string(),
  updated_at: z.string(),
});
export type InstalledPlugin = z.infer<typeof InstalledPlugin>;

/** Apps whose draft or published versions use a package's kinds (what a delete would break). */
export const PluginUsage = z.array(z.object({ app_id: z.string(), app_name: z.string(), kinds: z.array(z.string()) }));

/** One version of a plugin as it was installed or upgraded to (the detail page's history). */
export const PluginVersionEntry = z.object({ version: z.string(), checksum: z.string(), action: z.enum(['install', 'upgrade']), by: z.string(), at: z.string() });
export type PluginVersionEntry = z.infer<typeof PluginVersionEntry>;

export const PluginDetail = InstalledPlugin.extend({
  usage: PluginUsage,
  /** The versions installed over time, newest first. */
  history: z.array(PluginVersionEntry),
  /** The plugin's credentials schema (JSON Schema), null when it takes none. */
  credentials_schema: z.record(z.string(), z.unknown()).nullable(),
});

export const PluginIdParams = z.object({ plugin_id: PluginId });
export const PluginDeleteQuery = z.object({ force: z.enum(['true', 'false']).default('false') });

/** What an upgrade did: drafts rewritten by the kinds' config migrations. */
export const PluginUpgradeResult = z.object({ plugin: InstalledPlugin, migrated_drafts: z.number().int(), failed_drafts: z.array(z.string()) });

/** An active package as editors load it (GET /console/plugins/installed). */
export const EditorPlugin = z.object({ id: z.string(), version: z.string(), checksum: z.string(), kinds: z.array(z.string()) });
export type EditorPlugin = z.infer<typeof EditorPlugin>;
