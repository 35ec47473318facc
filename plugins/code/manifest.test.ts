import { describe, expect, it } from 'vitest';
import { flow, handlesOf, issueKeys, node, outputsOf, registry } from '../../tests/plugins/helpers';
import { DEFAULT_CODE, DEFAULT_PYTHON_CODE, hasMain } from './manifest';

describe('code', () => {
  it('starts with two inputs, one string output and a main function that uses them', () => {
    const n = node('code1', 'code');
    expect(n.config).toMatchObject({ language: 'javascript', inputs: [{ name: 'arg1' }, { name: 'arg2' }], outputs: [{ name: 'result', type: 'string' }], code: DEFAULT_CODE });
    expect(DEFAULT_CODE).toMatch(/function main\(\{ arg1, arg2 \}\)/);
    expect(handlesOf(n)).toEqual(['source']);
  });

  it('outputs what it declares, typed', () => {
    const doc = flow('workflow', [node('code1', 'code', { outputs: [{ name: 'total', type: 'number' }, { name: 'items', type: 'array[object]' }] })]);
    expect(outputsOf(doc, 'code1')).toEqual([
      { name: 'total', type: 'number' },
      { name: 'items', type: 'array[object]' },
    ]);
  });

  it('reports unchosen inputs, duplicate outputs, a missing main and unused inputs', () => {
    const doc = flow(
      'workflow',
      [
        node('start', 'start', { variables: [{ name: 'q' }] }),
        node('code1', 'code', {
          inputs: [{ name: 'a', selector: ['start', 'q'] }, { name: 'b', selector: [] }],
          code: 'const run = ({ a }) => ({ x: a });',
          outputs: [{ name: 'x', type: 'string' }, { name: 'x', type: 'number' }],
        }),
      ],
      [['start', 'code1']],
    );
    expect(issueKeys(doc, 'code1')).toEqual(['issues.selectorEmpty', 'issues.nameDuplicate', 'issues.mainMissing', 'issues.inputUnused']);
  });

  it('reports a reference to a node that is not upstream', () => {
    const doc = flow('workflow', [
      node('start', 'start', { variables: [{ name: 'q' }] }),
      node('code1', 'code', { inputs: [{ name: 'arg1', selector: ['start', 'q'] }], code: 'function main({ arg1 }) { return { result: arg1 } }' }),
    ]);
    expect(issueKeys(doc, 'code1')).toEqual(['sdk:issues.referenceNotUpstream']);
    expect(registry.referencesOf(doc.nodes[1]).map((r) => r.path.join('.'))).toEqual(['inputs.0.selector']);
  });

  it('understands Python: def main is the main function, a JavaScript one is not', () => {
    expect(DEFAULT_PYTHON_CODE).toMatch(/^def main\(arg1: str, arg2: str\) -> dict:/);
    expect(hasMain('python3', DEFAULT_PYTHON_CODE)).toBe(true);
    expect(hasMain('python3', 'import json\n\nasync def main(x):\n    return {}\n')).toBe(true);
    expect(hasMain('python3', 'function main() { return {} }')).toBe(false);
    expect(hasMain('python3', '    def main(self):\n        pass\n')).toBe(false);
    const py = (code: string) => flow('workflow', [node('code1', 'code', { language: 'python3', inputs: [], code })]);
    expect(issueKeys(py(DEFAULT_PYTHON_CODE), 'code1')).toEqual([]);
    expect(issueKeys(py('def helper(x):\n    return x\n'), 'code1')).toEqual(['issues.mainMissingPython']);
    expect(issueKeys(py('function main() { return {} }'), 'code1')).toEqual(['issues.mainMissingPython']);
  });
});
