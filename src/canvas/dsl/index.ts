/**
 * Flow files: export and import of our YAML (`kind: weft-flow`) and import of Dify DSL files. Plain
 * TypeScript over the registry; the editor's import dialog shows `errors`, `unmapped` and
 * `warnings` through the `dsl` i18n namespace.
 */
import type { NodeRegistry } from '../../plugin-sdk';
import { importDifyDsl, type DifyImport } from './dify-import';
import { importFlowYaml, type ImportOptions } from './flow-yaml';
import { dslError } from './messages';
import { detectFlowFormat, parseYamlObject } from './yaml-file';

export { exportFlowYaml, importFlowYaml, checkImportedDocument, FlowFileApp, FLOW_FILE_VERSION, type FlowFileAppInput, type FlowYamlImport, type ImportOptions } from './flow-yaml';
export { importDifyDsl, DIFY_MODES, type DifyImport, type UnmappedNode } from './dify-import';
export * from './messages';
export { detectFlowFormat, parseYamlObject, WEFT_FLOW_KIND, MAX_FILE_BYTES, type FlowFileFormat } from './yaml-file';

/**
 * Imports either kind of file, telling them apart by content (one "Import" button): our YAML
 * (nothing unmapped) or a Dify DSL file.
 */
export function importFlowFile(text: string, registry: NodeRegistry, opts: ImportOptions = {}): DifyImport {
  const yaml = parseYamlObject(text);
  if (!yaml.ok) return yaml;
  const format = detectFlowFormat(yaml.value);
  if (format === 'dify') return importDifyDsl(text, registry, opts);
  if (format !== 'weft') return { ok: false, errors: [dslError('formatUnknown')] };
  const r = importFlowYaml(text, registry, opts);
  return r.ok ? { ok: true, document: r.document, app: r.app, unmapped: [], warnings: [] } : r;
}
