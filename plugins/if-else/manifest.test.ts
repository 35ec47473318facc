import { describe, expect, it } from 'vitest';
import { flow, handlesOf, issueKeys, node, registry } from '../../tests/plugins/helpers';

const cond = (value: string, operator = 'contains', selector = ['start', 'q']) => ({ id: 'c', selector, operator, value });
const start = () => node('start', 'start', { variables: [{ name: 'q' }, { name: 'n', type: 'number' }] });

describe('if-else', () => {
  it('has one handle per case in order, then the else handle `false` (Dify ids)', () => {
    expect(handlesOf(node('if1', 'if-else'))).toEqual(['true', 'false']);
    const n = node('if1', 'if-else', { cases: [{ id: 'true', conditions: [] }, { id: 'c2', conditions: [] }] });
    expect(registry.sourceHandlesOf(n).map((h) => `${h.id}:${h.labelKey}`)).toEqual(['true:handles.if', 'c2:handles.elif', 'false:handles.else']);
  });

  it('reports empty cases, missing variables and values, non-numbers for number operators, reserved and repeated ids', () => {
    const doc = flow(
      'workflow',
      [
        start(),
        node('if1', 'if-else', {
          cases: [
            { id: 'true', conditions: [cond('x'), cond('', 'is'), cond('abc', '≥', ['start', 'n']), cond('', 'empty', [])] },
            { id: 'false', conditions: [] },
            { id: 'true', conditions: [cond('{{#start.n#}}', '>', ['start', 'n'])] },
          ],
        }),
      ],
      [['start', 'if1']],
    );
    expect(issueKeys(doc, 'if1')).toEqual([
      'conditions.issues.valueMissing',
      'conditions.issues.valueNotNumber',
      'conditions.issues.variableMissing',
      'issues.caseIdTaken',
      'issues.conditionsEmpty',
      'issues.caseIdTaken',
    ]);
  });

  it('accepts unary operators without a value and every Dify operator name', () => {
    const ops = ['contains', 'not contains', 'start with', 'end with', 'is', 'is not', 'empty', 'not empty', '=', '≠', '>', '<', '≥', '≤', 'in', 'not in'];
    const doc = flow(
      'workflow',
      [start(), node('if1', 'if-else', { cases: [{ id: 'true', conditions: ops.map((o) => cond(/[=≠<>≥≤]/.test(o) ? '3' : 'v', o)) }] })],
      [['start', 'if1']],
    );
    expect(issueKeys(doc, 'if1')).toEqual([]);
  });
});
