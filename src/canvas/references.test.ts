import { describe, expect, it } from 'vitest';
import { deletionSet } from './store/operations';
import { referencesTo } from './references';
import { registry, sampleFlow } from './plugins.fixture';

describe('referencesTo', () => {
  it('lists the selectors and text references a delete would break', () => {
    const refs = referencesTo(sampleFlow(), registry, ['a']);
    expect(refs.map((r) => [r.nodeId, r.source, r.selector.join('.'), r.path.join('.')])).toEqual([
      ['b', 'text', 'a.text', 'text'],
      ['b', 'selector', 'a.text', 'source'],
    ]);
  });

  it('leaves out references among the nodes that go together', () => {
    expect(referencesTo(sampleFlow(), registry, ['a', 'b'])).toEqual([]);
    expect(referencesTo(sampleFlow(), registry, deletionSet(sampleFlow(), registry, ['loop']))).toEqual([]);
  });
});
