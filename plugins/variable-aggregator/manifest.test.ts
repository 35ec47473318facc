import { describe, expect, it } from 'vitest';
import { flow, issueKeys, node, outputsOf } from '../../tests/plugins/helpers';

const base = () => [
  node('start', 'start', { variables: [{ name: 'n', type: 'number' }, { name: 'q' }] }),
  node('if1', 'if-else'),
];
const edges: [string, string, string?][] = [
  ['start', 'if1'],
  ['if1', 'agg', 'true'],
  ['if1', 'agg', 'false'],
];

describe('variable-aggregator', () => {
  it('takes its output type from the first variable when automatic, or as chosen', () => {
    const auto = flow('workflow', [...base(), node('agg', 'variable-aggregator', { selectors: [['start', 'n'], ['start', 'q']] })], edges);
    expect(outputsOf(auto, 'agg')).toEqual([{ name: 'output', type: 'number', labelKey: 'outputs.output' }]);
    const fixed = flow('workflow', [...base(), node('agg', 'variable-aggregator', { outputType: 'string', selectors: [['start', 'q']] })], edges);
    expect(outputsOf(fixed, 'agg')[0].type).toBe('string');
    expect(outputsOf(flow('workflow', [node('agg', 'variable-aggregator')]), 'agg')[0].type).toBe('string');
  });

  it('outputs one object per group when grouped', () => {
    const doc = flow(
      'workflow',
      [
        ...base(),
        node('agg', 'variable-aggregator', {
          groupsEnabled: true,
          groups: [
            { name: 'g1', selectors: [['start', 'n']] },
            { name: 'g2', outputType: 'string', selectors: [['start', 'q']] },
          ],
        }),
      ],
      edges,
    );
    expect(outputsOf(doc, 'agg')).toEqual([
      { name: 'g1', type: 'object', children: [{ name: 'output', type: 'number' }] },
      { name: 'g2', type: 'object', children: [{ name: 'output', type: 'string' }] },
    ]);
    expect(issueKeys(doc, 'agg')).toEqual([]);
  });

  it('reports no variables, repeated variables, dangling ones and unnamed groups', () => {
    expect(issueKeys(flow('workflow', [node('agg', 'variable-aggregator')]), 'agg')).toEqual(['issues.selectorsEmpty']);
    const doc = flow('workflow', [...base(), node('agg', 'variable-aggregator', { selectors: [['start', 'q'], ['start', 'q'], ['gone', 'x']] })], edges);
    expect(issueKeys(doc, 'agg')).toEqual(['sdk:issues.referenceMissing', 'issues.selectorDuplicate']);
    const grouped = flow('workflow', [node('agg', 'variable-aggregator', { groupsEnabled: true, groups: [{ name: '' }] })]);
    expect(issueKeys(grouped, 'agg')).toEqual(['issues.nameEmpty', 'issues.selectorsEmpty']);
  });
});
