import { describe, expect, it } from 'vitest';
import { flow, issueKeys, node, outputsOf } from '../../tests/plugins/helpers';

describe('parameter-extractor', () => {
  const params = [
    { name: 'city', type: 'string', description: 'The city', required: true },
    { name: 'days', type: 'number', description: 'How many days' },
    { name: 'tags', type: 'array[string]', description: '' },
  ];

  it('outputs one typed value per parameter, then success, reason and usage', () => {
    const doc = flow('workflow', [node('pe', 'parameter-extractor', { parameters: params })]);
    expect(outputsOf(doc, 'pe').map((p) => `${p.name}:${p.type}`)).toEqual([
      'city:string',
      'days:number',
      'tags:array[string]',
      '__is_success:number',
      '__reason:string',
      '__usage:object',
    ]);
  });

  it('needs a model, a query and parameters with free, described names', () => {
    expect(issueKeys(flow('workflow', [node('pe', 'parameter-extractor')]), 'pe')).toEqual([
      'model.issues.modelMissing',
      'issues.querySelectorEmpty',
      'issues.parametersEmpty',
    ]);
    const doc = flow('chatflow', [
      node('start', 'start'),
      node('pe', 'parameter-extractor', { model: { provider: 'p', name: 'm' }, query: ['sys', 'query'], parameters: [...params, { name: '__x' }, { name: 'city' }] }),
    ], [['start', 'pe']]);
    expect(issueKeys(doc, 'pe')).toEqual(['issues.nameDuplicate', 'issues.descriptionEmpty', 'issues.nameReserved', 'issues.descriptionEmpty', 'issues.descriptionEmpty']);
  });
});
