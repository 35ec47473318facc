import { describe, expect, it } from 'vitest';
import { flow, issueKeys, node, registry } from '../../tests/plugins/helpers';

const model = { provider: 'p', name: 'm' };

describe('question-classifier', () => {
  it('has one handle per class, labelled with the class name', () => {
    const n = node('qc', 'question-classifier', { classes: [{ id: '1', name: 'Billing' }, { id: '2', name: '' }, { id: 'x', name: 'Other' }] });
    expect(registry.sourceHandlesOf(n).map((h) => `${h.id}:${h.label}`)).toEqual(['1:Billing', '2:#2', 'x:Other']);
    expect(registry.outputsOf(n).map((p) => p.name)).toEqual(['class_name', 'usage']);
  });

  it('needs a model, a query and distinct named classes', () => {
    const doc = flow('chatflow', [
      node('start', 'start'),
      node('qc', 'question-classifier', { classes: [{ id: '1', name: 'A' }, { id: '1', name: ' A ' }, { id: '3', name: '' }] }),
    ], [['start', 'qc']]);
    expect(issueKeys(doc, 'qc')).toEqual([
      'model.issues.modelMissing',
      'issues.querySelectorEmpty',
      'issues.classIdTaken',
      'issues.classNameDuplicate',
      'issues.classNameEmpty',
    ]);
    const ok = flow('chatflow', [node('start', 'start'), node('qc', 'question-classifier', { model, query: ['sys', 'query'], classes: [{ id: '1', name: 'A' }] })], [['start', 'qc']]);
    expect(issueKeys(ok, 'qc')).toEqual([]);
  });
});
