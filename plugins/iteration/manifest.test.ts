import { describe, expect, it } from 'vitest';
import { flow, graphOf, issueKeys, node, outputsOf, registry } from '../../tests/plugins/helpers';

const model = { provider: 'p', name: 'm' };

/** start → code (list) → iteration { iteration-start → llm(item) } */
function iterationFlow(config: Record<string, unknown>) {
  const { node: it, children } = registry.createNode('iteration', { id: 'it', position: { x: 0, y: 0 } });
  return flow(
    'workflow',
    [
      node('start', 'start'),
      node('code1', 'code', { inputs: [], code: 'function main() { return { list: [] } }', outputs: [{ name: 'list', type: 'array[string]' }] }),
      { ...it, config: { ...it.config, ...config } },
      ...children,
      node('llm1', 'llm', { model, prompts: [{ role: 'user', text: 'Say {{#it.item#}} ({{#it.index#}})' }] }, { parentId: 'it' }),
    ],
    [
      ['start', 'code1'],
      ['code1', 'it'],
      ['it-start', 'llm1'],
    ],
  );
}

describe('iteration', () => {
  it('is created with its own iteration-start inside', () => {
    const { node: it, children } = registry.createNode('iteration', { id: 'it', position: { x: 0, y: 0 } });
    expect(children.map((c) => [c.kind, c.parentId])).toEqual([['iteration-start', 'it']]);
    expect(it).toMatchObject({ width: 640, height: 260 });
  });

  it('types the item from the input array and the output from the collected variable', () => {
    const doc = iterationFlow({ iterator: ['code1', 'list'], output: ['llm1', 'text'] });
    const g = graphOf(doc);
    expect(registry.typeOf(['it', 'item'], g, 'llm1')).toBe('string');
    expect(registry.typeOf(['it', 'index'], g, 'llm1')).toBe('number');
    expect(outputsOf(doc, 'it')).toEqual([{ name: 'output', type: 'array[string]', labelKey: 'outputs.output' }]);
    // The container may select its inner node's output, and the inner node its item: no issues.
    expect(issueKeys(doc, 'it')).toEqual([]);
    expect(issueKeys(doc, 'llm1')).toEqual([]);
  });

  it('keeps an array of arrays flat, or makes it objects when not flattened', () => {
    const usage = iterationFlow({ iterator: ['code1', 'list'], output: ['llm1', 'usage'] });
    expect(outputsOf(usage, 'it')[0].type).toBe('array[object]');
  });

  it('needs an input array and an output from inside', () => {
    expect(issueKeys(iterationFlow({}), 'it')).toEqual(['issues.iteratorMissing', 'issues.outputMissing']);
    expect(issueKeys(iterationFlow({ iterator: ['code1', 'list'], output: ['code1', 'list'] }), 'it')).toEqual(['issues.outputNotInside']);
  });

  it('keeps the iteration-start inside iterations only', () => {
    const doc = flow('workflow', [node('s', 'iteration-start')]);
    expect(issueKeys(doc, 's')).toEqual(['sdk:issues.placementNotAllowed']);
  });
});
