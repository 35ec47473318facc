import { describe, expect, it, vi } from 'vitest';
import { registry } from '../widgets/test-flow.fixture';
import { createSingleRunMemory, inputKind, parseInputs, runsAlone, singleRunInputs } from './single-run';

describe('which kinds run alone', () => {
  it('every kind with work of its own, not start/end/answer, containers or notes', () => {
    const alone = registry.plugins.filter((p) => runsAlone(registry, p.kind)).map((p) => p.kind);
    for (const k of ['llm', 'code', 'http-request', 'template-transform', 'tool', 'mcp', 'knowledge-retrieval', 'question-classifier', 'parameter-extractor', 'if-else', 'agent', 'variable-aggregator']) {
      expect(alone).toContain(k);
    }
    for (const k of ['start', 'end', 'answer', 'iteration', 'loop', 'iteration-start', 'loop-start', 'note']) expect(alone).not.toContain(k);
    expect(runsAlone(registry, 'nope')).toBe(false);
  });
});

describe('the inputs of a single-node run', () => {
  it('are the references of the config, once each, without environment variables', () => {
    const node = {
      id: 'code_1',
      kind: 'code',
      kindVersion: 1,
      title: '',
      position: { x: 0, y: 0 },
      config: {
        ...registry.defaults('code'),
        inputs: [
          { name: 'a', selector: ['start', 'q'] },
          { name: 'b', selector: ['llm_1', 'usage'] },
          { name: 'c', selector: ['start', 'q'] },
          { name: 'd', selector: ['env', 'API_KEY'] },
        ],
      },
    };
    const typeOf = vi.fn((s: readonly string[]) => (s[1] === 'usage' ? ('object' as const) : ('string' as const)));
    expect(singleRunInputs(registry, node, typeOf)).toEqual([
      { key: 'start.q', selector: ['start', 'q'], type: 'string' },
      { key: 'llm_1.usage', selector: ['llm_1', 'usage'], type: 'object' },
    ]);
  });

  it('parse by type; an empty field is left out; bad values are named', () => {
    const fields = [
      { key: 'a.text', selector: ['a', 'text'], type: 'string' as const },
      { key: 'a.n', selector: ['a', 'n'], type: 'number' as const },
      { key: 'a.ok', selector: ['a', 'ok'], type: 'boolean' as const },
      { key: 'a.obj', selector: ['a', 'obj'], type: 'object' as const },
      { key: 'a.list', selector: ['a', 'list'], type: 'array[string]' as const },
      { key: 'a.none', selector: ['a', 'none'], type: 'string' as const },
    ];
    expect(parseInputs(fields, { 'a.text': ' hi ', 'a.n': '2.5', 'a.ok': 'TRUE', 'a.obj': '{"x":1}', 'a.list': '["p"]', 'a.none': '' })).toEqual({
      ok: true,
      inputs: { 'a.text': ' hi ', 'a.n': 2.5, 'a.ok': true, 'a.obj': { x: 1 }, 'a.list': ['p'] },
    });
    expect(parseInputs(fields, { 'a.n': 'two', 'a.ok': 'yes', 'a.obj': '{x' })).toEqual({ ok: false, errors: { 'a.n': 'invalidNumber', 'a.ok': 'invalidBoolean', 'a.obj': 'invalidJson' } });
    expect([undefined, 'string', 'number', 'boolean', 'file', 'array[object]'].map((t) => inputKind(t as never))).toEqual(['text', 'text', 'number', 'boolean', 'json', 'json']);
  });

  it('are remembered per app and node, with the last result', () => {
    const memory = createSingleRunMemory();
    const heard = vi.fn();
    const off = memory.subscribe(heard);
    expect(memory.get('app1', 'n1')).toEqual({ texts: {}, state: { status: 'idle' } });
    memory.update('app1', 'n1', { texts: { 'start.q': 'hello' } });
    memory.update('app1', 'n1', { state: { status: 'running', startedAt: 1 } });
    expect(memory.get('app1', 'n1')).toEqual({ texts: { 'start.q': 'hello' }, state: { status: 'running', startedAt: 1 } });
    expect(memory.get('app2', 'n1').texts).toEqual({});
    expect(heard).toHaveBeenCalledTimes(2);
    off();
    memory.update('app1', 'n1', { texts: {} });
    expect(heard).toHaveBeenCalledTimes(2);
  });
});
