import { describe, expect, it } from 'vitest';
import { flow, issueKeys, node, outputsOf, registry } from '../../tests/plugins/helpers';

describe('start', () => {
  const vars = [
    { name: 'topic', label: 'Topic', type: 'text', required: true },
    { name: 'notes', type: 'paragraph' },
    { name: 'level', type: 'select', options: ['a', 'b'] },
    { name: 'count', type: 'number' },
    { name: 'doc', type: 'file' },
    { name: 'docs', type: 'file-list', required: false },
  ];

  it('outputs its form fields, typed by field type', () => {
    const doc = flow('workflow', [node('start', 'start', { variables: vars })]);
    expect(outputsOf(doc, 'start').map((p) => `${p.name}:${p.type}`)).toEqual([
      'topic:string',
      'notes:string',
      'level:string',
      'count:number',
      'doc:file',
      'docs:array[file]',
    ]);
    expect(outputsOf(doc, 'start')[0]).toMatchObject({ label: 'Topic', required: true });
  });

  it('reports duplicate and malformed names and a select without options, leaving bad names out of the outputs', () => {
    const doc = flow('workflow', [
      node('start', 'start', { variables: [{ name: 'a' }, { name: 'a' }, { name: '1x' }, { name: '' }, { name: 's', type: 'select' }] }),
    ]);
    expect(issueKeys(doc, 'start')).toEqual(['issues.nameDuplicate', 'issues.nameInvalid', 'issues.nameEmpty', 'issues.optionsEmpty']);
    expect(outputsOf(doc, 'start').map((p) => p.name)).toEqual(['a', 's']);
  });

  it('is the one undeletable entry at the top level, with no way in', () => {
    const p = registry.get('start')!;
    expect([p.singleton, p.deletable, p.targetHandle, p.parents]).toEqual([true, false, false, ['root']]);
  });
});
