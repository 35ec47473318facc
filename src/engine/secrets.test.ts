import { describe, expect, it } from 'vitest';
import { MaskedEvents } from './masked-events';
import { createSecretMasker, SECRET_MASK } from './secrets';

describe('createSecretMasker', () => {
  const m = createSecretMasker(['sk-abc/123+x', 'ab', '', 4711]);

  it('masks every occurrence in strings, nested values and keys, in the forms a URL or JSON gives it', () => {
    expect(m.text('Bearer sk-abc/123+x and sk-abc/123+x')).toBe(`Bearer ${SECRET_MASK} and ${SECRET_MASK}`);
    expect(m.text(`https://api.test/v1?key=${encodeURIComponent('sk-abc/123+x')}`)).toBe(`https://api.test/v1?key=${SECRET_MASK}`);
    expect(m.text(new URLSearchParams({ key: 'sk-abc/123+x' }).toString())).toBe(`key=${SECRET_MASK}`);
    const v = { a: [{ b: 'x sk-abc/123+x' }], ['h sk-abc/123+x']: 1, s: '4711', n: 4711, flag: true, none: null };
    // Numbers stay numbers (timings, token counts); a secret in text form is masked.
    expect(m.value(v)).toEqual({ a: [{ b: `x ${SECRET_MASK}` }], [`h ${SECRET_MASK}`]: 1, s: SECRET_MASK, n: 4711, flag: true, none: null });
    // The input is not changed (the engine keeps using it).
    expect(v.a[0].b).toBe('x sk-abc/123+x');
  });

  it('masks a short secret only where a whole string is it', () => {
    expect(m.text('ab')).toBe(SECRET_MASK);
    expect(m.text('about a cab')).toBe('about a cab');
  });

  it('holds streamed text back while it may be the start of a secret', () => {
    const pieces = ['key: sk-a', 'bc/1', '23+x done, sk-', 'nothing'];
    const out = pieces.map((p) => m.chunk('s', p));
    expect(out).toEqual(['key: ', '', `${SECRET_MASK} done, `, 'sk-nothing']);
    expect(m.chunk('s', 'tail sk-ab')).toBe('tail ');
    expect(m.flush('s')).toBe('sk-ab');
    expect(m.flush('s')).toBe('');
  });

  it('does nothing without secrets', () => {
    const none = createSecretMasker(['', undefined, null]);
    expect(none.active).toBe(false);
    const v = { a: 'x' };
    expect(none.value(v)).toBe(v);
  });
});

describe('MaskedEvents', () => {
  it("masks an event's values, never its ids, kinds or states", () => {
    const events = new MaskedEvents(createSecretMasker(['succeeded', 'node-1']));
    const head = { executionId: 'x1', nodeId: 'node-1', kind: 'code', title: 'Code', scope: [] };
    const [out] = events.process({ type: 'node_finished', ...head, status: 'succeeded', elapsedMs: 1, inputs: { a: 'succeeded' }, outputs: { b: 'node-1!' }, handle: 'source', retries: 0 });
    expect(out).toMatchObject({ nodeId: 'node-1', status: 'succeeded', inputs: { a: SECRET_MASK }, outputs: { b: `${SECRET_MASK}!` } });
    const [failed] = events.process({ type: 'node_failed', ...head, status: 'failed', elapsedMs: 1, inputs: {}, error: { code: 'X', message: 'node-1 succeeded', nodeId: 'node-1' }, retries: 0 });
    expect(failed).toMatchObject({ nodeId: 'node-1', error: { code: 'X', message: `${SECRET_MASK} ${SECRET_MASK}`, nodeId: 'node-1' } });
  });

  it("sends what a stream held back before its node's end and the run's end", () => {
    const events = new MaskedEvents(createSecretMasker(['sk-secret-1']));
    const head = { executionId: 'x2', nodeId: 'llm', kind: 'llm', title: 'LLM', scope: [] };
    expect(events.process({ type: 'node_chunk', ...head, text: 'say sk-sec' })).toEqual([{ type: 'node_chunk', ...head, text: 'say ' }]);
    const end = events.process({ type: 'node_finished', ...head, status: 'succeeded', elapsedMs: 1, inputs: {}, outputs: {}, handle: 'source', retries: 0 });
    expect(end.map((e) => [e.type, 'text' in e ? e.text : ''])).toEqual([
      ['node_chunk', 'sk-sec'],
      ['node_finished', ''],
    ]);
    expect(events.process({ type: 'answer_chunk', nodeId: 'a', text: 'key sk-secret' })).toEqual([{ type: 'answer_chunk', nodeId: 'a', text: 'key ' }]);
    const last = events.process({ type: 'run_finished', elapsedMs: 1, outputs: {}, answer: 'key sk-secret', usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, steps: 1 });
    expect(last.map((e) => e.type)).toEqual(['answer_chunk', 'run_finished']);
    expect(last[0]).toMatchObject({ nodeId: 'a', text: 'sk-secret' });
  });
});
