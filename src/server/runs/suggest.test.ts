import { describe, expect, it } from 'vitest';
import { appModelOf, questionsOf } from './suggest';
import { flow } from '../../../tests/engine/kit';

describe('follow-up suggestions', () => {
  it('reads one question a line, list marks and quotes taken off, at most three', () => {
    expect(questionsOf('1. What next?\n- "And then?"\n\n* Why?\n4) Also this?')).toEqual(['What next?', 'And then?', 'Why?']);
    expect(questionsOf('  \n')).toEqual([]);
    expect(questionsOf('一、为什么？\n2、怎么办？')).toEqual(['一、为什么？', '怎么办？']);
  });

  it("takes the app's model from its first LLM node, else its first agent; none without either", () => {
    const m = { provider: 'openai', name: 'gpt-4o-mini' };
    expect(appModelOf(flow([['s', 'start'], ['a', 'agent', { model: { provider: 'x', name: 'y' } }], ['l', 'llm', { model: m }]], []))).toEqual(m);
    expect(appModelOf(flow([['s', 'start'], ['a', 'agent', { model: { provider: 'x', name: 'y' } }]], []))).toEqual({ provider: 'x', name: 'y' });
    expect(appModelOf(flow([['s', 'start'], ['l', 'llm', { model: { provider: '', name: '' } }]], []))).toBeNull();
  });
});
