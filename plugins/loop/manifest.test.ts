import { describe, expect, it } from 'vitest';
import { flow, graphOf, issueKeys, node, outputsOf, registry } from '../../tests/plugins/helpers';

function loopFlow(config: Record<string, unknown>) {
  const { node: loop, children } = registry.createNode('loop', { id: 'lp', position: { x: 0, y: 0 } });
  return flow(
    'workflow',
    [
      node('start', 'start'),
      { ...loop, config: { ...loop.config, ...config } },
      ...children,
      node('set', 'variable-assigner', { assignments: [{ target: ['lp', 'count'], operation: '+=', source: 'constant', value: 1 }] }, { parentId: 'lp' }),
    ],
    [
      ['start', 'lp'],
      ['lp-start', 'set'],
    ],
  );
}

describe('loop', () => {
  const vars = [
    { name: 'count', type: 'number', source: 'constant', value: 0 },
    { name: 'log', type: 'array[string]', source: 'constant', value: [] },
  ];

  it('is a container with a loop-start and a break condition', () => {
    const p = registry.get('loop')!;
    expect(p.container).toMatchObject({ startKind: 'loop-start', breakCondition: true });
    expect(node('lp', 'loop').config).toMatchObject({ maxCount: 10, logicalOperator: 'and', breakConditions: [] });
  });

  it('shows its loop variables and index inside, and the variables outside', () => {
    const doc = loopFlow({ loopVariables: vars });
    expect(registry.typeOf(['lp', 'count'], graphOf(doc), 'set')).toBe('number');
    expect(registry.typeOf(['lp', 'index'], graphOf(doc), 'set')).toBe('number');
    expect(outputsOf(doc, 'lp').map((p) => `${p.name}:${p.type}`)).toEqual(['count:number', 'log:array[string]']);
  });

  it('lets break conditions use its own loop variables, and assigners inside write them', () => {
    const doc = loopFlow({ loopVariables: vars, breakConditions: [{ id: 'b', selector: ['lp', 'count'], operator: '≥', value: '3' }] });
    expect(issueKeys(doc, 'lp')).toEqual([]);
    expect(issueKeys(doc, 'set')).toEqual([]);
  });

  it('warns without a break condition and checks variables and conditions', () => {
    expect(issueKeys(loopFlow({}), 'lp')).toEqual(['issues.noBreakCondition']);
    const doc = loopFlow({
      loopVariables: [{ name: 'index', type: 'number', value: 0 }, { name: 'x', type: 'number', value: 'a' }, { name: 'y', source: 'variable' }],
      breakConditions: [{ id: 'b', selector: ['lp', 'nope'], operator: 'is', value: '' }],
    });
    expect(issueKeys(doc, 'lp')).toEqual([
      'sdk:issues.referenceSelf',
      'issues.nameReserved',
      'issues.valueType',
      'issues.selectorEmpty',
      'conditions.issues.valueMissing',
    ]);
  });
});
