import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FlowDocument } from '../../../schemas/flow';
import { createNodeRegistry } from '../../plugin-sdk';
import { builtinPlugins } from '../builtin-plugins';
import { importDifyDsl } from './dify-import';

/**
 * Real Dify exports from public repositories (fixtures/dify-real, sources and licences in its
 * SOURCES.md): every file imports without a crash, and every Dify node is either in the document or
 * listed as unmapped, so nothing disappears silently.
 */
const registry = createNodeRegistry(builtinPlugins);
const files = import.meta.glob<string>('./fixtures/dify-real/*.yml', { eager: true, query: '?raw', import: 'default' });
const entries = Object.entries(files).map(([path, text]) => [path.split('/').pop()!, text] as const);

/** The Dify node ids of a file (notes included, as the importer maps them too). */
function difyNodeIds(text: string): string[] {
  const nodes = (parse(text) as { workflow: { graph: { nodes: { id: unknown }[] } } }).workflow.graph.nodes;
  return nodes.map((n) => String(n.id));
}

describe('real Dify exports', () => {
  it('has at least 20 of them', () => expect(entries.length).toBeGreaterThanOrEqual(20));

  it.each(entries)('%s: imports, and every node maps or is reported', (_name, text) => {
    const r = importDifyDsl(text, registry);
    if (!r.ok) throw new Error(`import failed: ${JSON.stringify(r.errors)}`);
    expect(FlowDocument.safeParse(r.document).success).toBe(true);
    const kept = new Set(r.document.nodes.map((n) => n.id));
    const reported = new Set(r.unmapped.map((n) => n.id));
    const ids = difyNodeIds(text);
    expect(ids.length).toBeGreaterThan(0);
    // Ids the importer renamed are reported as idChanged; the rest must be kept or reported.
    const renamed = new Set(r.warnings.filter((w) => w.key === 'warnings.idChanged').map((w) => String(w.params?.from)));
    const lost = ids.filter((id) => !kept.has(id) && !reported.has(id) && !renamed.has(id));
    expect(lost).toEqual([]);
    // Listed for the log: what each file warns about.
    console.info(`${_name}: ${kept.size} kept, ${reported.size} unmapped, warnings: ${r.warnings.map((w) => w.key.slice(9)).join(', ') || '-'}`);
  });
});
