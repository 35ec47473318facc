// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { flow, runBuiltin } from '../../tests/engine/builtin-kit';
import { issueKeys, node, flow as doc, outputsOf } from '../../tests/plugins/helpers';
import type { SandboxService } from '../../src/plugin-sdk';

const field = (name: string, type: string) => ({ name, label: '', type, required: true, options: [], allowed_extensions: [] });

/**
 * A workflow: a start field `json` → a code node that parses it (its sandbox here only parses JSON:
 * the list operator is under test, the real sandbox has its own tests) → the list operator → end.
 */
const parser: SandboxService = { run: async ({ inputs }) => ({ items: JSON.parse(String(inputs.json)) }) };
const run = (d: ReturnType<typeof flow>, json: string) => runBuiltin(d, { inputs: { json }, services: { sandbox: parser } });
function listFlow(config: Record<string, unknown>, type = 'array[object]') {
  return flow(
    [
      ['s', 'start', { variables: [field('json', 'paragraph')] }],
      ['c', 'code', { language: 'javascript', code: 'function main({ json }) { return { items: JSON.parse(json) }; }', inputs: [{ name: 'json', selector: ['s', 'json'] }], outputs: [{ name: 'items', type }] }],
      ['l', 'list-operator', { variable: ['c', 'items'], ...config }],
      ['e', 'end', { outputs: [{ name: 'result', selector: ['l', 'result'] }, { name: 'first', selector: ['l', 'first_record'] }, { name: 'last', selector: ['l', 'last_record'] }] }],
    ],
    [
      ['s', 'c'],
      ['c', 'l'],
      ['l', 'e'],
    ],
  );
}
const files = [
  { file_id: 'f1', name: 'b.pdf', mime_type: 'application/pdf', size: 300 },
  { file_id: 'f2', name: 'a.png', mime_type: 'image/png', size: 100 },
  { file_id: 'f3', name: 'c.docx', mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', size: 200 },
];

describe('list-operator', () => {
  it("filters files by Dify's type, sorts by name and keeps the first N", async () => {
    const r = run(listFlow({ filterEnabled: true, filters: [{ key: 'type', operator: 'in', value: 'document' }], sortEnabled: true, sortKey: 'name', limitEnabled: true, limit: 1 }), JSON.stringify(files));
    expect(await r.result).toMatchObject({ status: 'succeeded', outputs: { result: [files[0]], first: files[0], last: files[0] } });
  });

  it('sorts numbers descending and picks the Nth item (1-based); empty results give null records', async () => {
    const sorted = run(listFlow({ sortEnabled: true, sortOrder: 'desc', extractEnabled: false }, 'array[number]'), '[3, 10, 1]');
    expect(await sorted.result).toMatchObject({ outputs: { result: [10, 3, 1], first: 10, last: 1 } });
    const picked = run(listFlow({ extractEnabled: true, extractIndex: '2' }, 'array[string]'), '["a", "b", "c"]');
    expect(await picked.result).toMatchObject({ outputs: { result: ['b'], first: 'b', last: 'b' } });
    const none = run(listFlow({ filterEnabled: true, filters: [{ key: '', operator: 'start with', value: 'z' }] }, 'array[string]'), '["a"]');
    expect(await none.result).toMatchObject({ outputs: { result: [], first: null, last: null } });
  });

  it('fails with LIST-INDEX-OUT-OF-RANGE for an item that is not there, LIST-NOT-A-LIST for a non-array', async () => {
    const out = run(listFlow({ extractEnabled: true, extractIndex: '5' }, 'array[number]'), '[1]');
    expect(await out.result).toMatchObject({ status: 'failed', error: { code: 'LIST-INDEX-OUT-OF-RANGE' } });
    const notList = run(listFlow({ variable: ['s', 'json'] }), '[]');
    expect(await notList.result).toMatchObject({ status: 'failed', error: { code: 'LIST-NOT-A-LIST' } });
  });

  it('types its outputs from the array and checks its settings', () => {
    const d = doc('workflow', [node('s', 'start', { variables: [{ ...field('docs', 'file-list') }] }), node('l', 'list-operator', { variable: ['s', 'docs'], filterEnabled: true })], [['s', 'l']]);
    expect(outputsOf(d, 'l').map((p) => [p.name, p.type])).toEqual([
      ['result', 'array[file]'],
      ['first_record', 'file'],
      ['last_record', 'file'],
    ]);
    expect(issueKeys(d, 'l')).toContain('issues.filtersEmpty');
    expect(issueKeys(doc('workflow', [node('l', 'list-operator')]), 'l')).toContain('issues.variableMissing');
  });
});
