import { stringify } from 'yaml';
import { z } from 'zod';
import { FLOW_LIMITS, FlowDocument, FlowMode } from '../../../schemas/flow';
import type { NodeRegistry } from '../../plugin-sdk';
import { dslError, type DslError } from './messages';
import { detectFlowFormat, parseYamlObject, WEFT_FLOW_KIND } from './yaml-file';

/** The version of our YAML file's envelope (the flow inside carries its own `schemaVersion`). */
export const FLOW_FILE_VERSION = 1;

/**
 * The app a flow file came from: what a new app made from the file starts with. Uploaded icons
 * (a workspace's file) do not travel; a default icon and its colour do.
 */
export const FlowFileApp = z.object({
  name: z.string().max(64).default(''),
  description: z.string().max(500).default(''),
  mode: FlowMode.optional(),
  icon: z.string().max(64).optional(),
  iconColor: z.string().max(32).optional(),
});
export type FlowFileApp = z.infer<typeof FlowFileApp>;
export type FlowFileAppInput = z.input<typeof FlowFileApp>;

/**
 * The flow as a YAML file to download: `kind: weft-flow`, the app's name, description and icon,
 * and the flow document. Secret environment variables leave without their value (they are
 * write-only; the importer sets them again).
 * @example download(`${app.name}.yml`, exportFlowYaml(store.toDocument(), { name: app.name, description: app.description }))
 */
export function exportFlowYaml(doc: FlowDocument, app: FlowFileAppInput): string {
  const env = doc.variables.env.map((v) => (v.type === 'secret' ? { id: v.id, name: v.name, type: v.type, description: v.description } : v));
  const file = {
    kind: WEFT_FLOW_KIND,
    version: FLOW_FILE_VERSION,
    app: FlowFileApp.parse({ ...app, mode: doc.mode }),
    flow: { ...doc, variables: { ...doc.variables, env } },
  };
  // No line folding: prompts and code must come back byte for byte.
  return stringify(file, { lineWidth: 0, aliasDuplicateObjects: false });
}

export interface ImportOptions {
  /** The mode of the app being imported into; a file of another mode is refused. */
  mode?: FlowMode;
}

export type FlowYamlImport =
  | { ok: true; document: FlowDocument; app: FlowFileApp; /** Nodes brought up to the registry's versions. */ migrated: string[] }
  | { ok: false; errors: DslError[] };

/** At most this many schema errors are listed (the first ones say what is wrong). */
const MAX_ERRORS = 20;

/**
 * Checks a parsed document against the schema and the registry (known kinds, versions that can be
 * migrated) and migrates its nodes. Shared by both importers.
 */
export function checkImportedDocument(input: unknown, registry: NodeRegistry, opts: ImportOptions = {}): { ok: true; document: FlowDocument; migrated: string[] } | { ok: false; errors: DslError[] } {
  const parsed = FlowDocument.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.slice(0, MAX_ERRORS).map((i) => dslError('documentInvalid', { path: i.path.join('.') || '-', message: i.message })),
    };
  }
  const doc = parsed.data;
  // The saved flow's limit (the server refuses larger drafts): a larger file could never be saved.
  if (new TextEncoder().encode(JSON.stringify(doc)).length > FLOW_LIMITS.maxBytes) return { ok: false, errors: [dslError('flowTooLarge', { max: FLOW_LIMITS.maxBytes / 1024 / 1024 })] };
  if (opts.mode && doc.mode !== opts.mode) return { ok: false, errors: [dslError('modeMismatch', { mode: doc.mode, expected: opts.mode })] };
  const errors: DslError[] = [];
  for (const n of doc.nodes) {
    const p = registry.get(n.kind);
    if (!p) errors.push(dslError('kindUnknown', { node: n.title || n.id, kind: n.kind }));
    else if (n.kindVersion > p.version) errors.push(dslError('versionTooNew', { node: n.title || n.id, kind: n.kind, version: n.kindVersion, current: p.version }));
  }
  if (errors.length) return { ok: false, errors: errors.slice(0, MAX_ERRORS) };
  const { document, migrated, failed } = registry.migrateFlow(doc);
  if (failed.length) {
    return { ok: false, errors: failed.slice(0, MAX_ERRORS).map((f) => dslError('migrationFailed', { node: doc.nodes.find((n) => n.id === f.nodeId)?.title || f.nodeId, kind: f.kind, from: f.from })) };
  }
  return { ok: true, document, migrated };
}

/**
 * Reads a flow file written by {@link exportFlowYaml}: a validated document (schema, known kinds,
 * migrated to the registry's versions), or the reasons it cannot be imported (i18n keys in `dsl`).
 * @example
 * const r = importFlowYaml(await file.text(), registry, { mode: app.mode });
 * if (r.ok) store.replaceDocument(r.document); else showErrors(r.errors.map((e) => t(`dsl:${e.key}`, e.params)));
 */
export function importFlowYaml(text: string, registry: NodeRegistry, opts: ImportOptions = {}): FlowYamlImport {
  const yaml = parseYamlObject(text);
  if (!yaml.ok) return yaml;
  const value = yaml.value;
  const format = detectFlowFormat(value);
  if (format !== 'weft') return { ok: false, errors: [dslError(format === 'dify' ? 'difyFile' : 'formatUnknown')] };
  if (value.version !== FLOW_FILE_VERSION) return { ok: false, errors: [dslError('versionUnsupported', { version: String(value.version) })] };
  const app = FlowFileApp.safeParse(value.app ?? {});
  const checked = checkImportedDocument(value.flow, registry, opts);
  if (!checked.ok) return checked;
  return { ok: true, document: checked.document, app: app.success ? app.data : FlowFileApp.parse({}), migrated: checked.migrated };
}
