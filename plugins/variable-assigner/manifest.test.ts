import { describe, expect, it } from 'vitest';
import { flow, issueKeys, node } from '../../tests/plugins/helpers';

const conversation = [
  { id: 'c1', name: 'count', type: 'number', value: 0, description: '' },
  { id: 'c2', name: 'topics', type: 'array[string]', value: [], description: '' },
  { id: 'c3', name: 'name', type: 'string', value: '', description: '' },
] as const;

const chat = (assignments: unknown[]) =>
  flow('chatflow', [node('start', 'start'), node('set', 'variable-assigner', { assignments })], [['start', 'set']], {
    env: [],
    conversation: conversation.map((c) => ({ ...c })),
  });

describe('variable-assigner', () => {
  it('writes conversation variables with operations fitting their type', () => {
    const doc = chat([
      { target: ['conversation', 'count'], operation: '+=', source: 'constant', value: 1 },
      { target: ['conversation', 'topics'], operation: 'append', selector: ['sys', 'query'] },
      { target: ['conversation', 'name'], operation: 'clear' },
    ]);
    expect(issueKeys(doc, 'set')).toEqual([]);
  });

  it('reports operations that do not fit, missing values and targets that cannot be written', () => {
    const doc = chat([
      { target: ['conversation', 'name'], operation: '+=', source: 'constant', value: 1 },
      { target: ['conversation', 'count'], operation: 'append', source: 'constant', value: '' },
      { target: ['start', 'x'], operation: 'over-write', selector: ['sys', 'query'] },
      { target: [], operation: 'set' },
    ]);
    expect(issueKeys(doc, 'set')).toEqual([
      'sdk:issues.referenceMissing',
      'issues.operationNeedsNumber',
      'issues.operationNeedsArray',
      'issues.valueMissing',
      'issues.targetNotWritable',
      'issues.targetMissing',
    ]);
    expect(issueKeys(chat([]), 'set')).toEqual(['issues.assignmentsEmpty']);
  });
});
