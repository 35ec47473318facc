import { describe, expect, it } from 'vitest';
import { chatRunEvents, eventScript, iterationRunEvents } from './events.fixture';
import { applyTraceEvent, buildTrace, emptyTrace, traceFromStored, traceTokens, type StoredRun } from './trace';

describe('buildTrace', () => {
  it('follows a chat run: ids, answer from the chunks, node statuses, time and tokens', () => {
    const t = buildTrace(chatRunEvents('r1', 'conv-1'));
    expect(t).toMatchObject({ runId: 'r1', conversationId: 'conv-1', status: 'succeeded', answer: 'Hello, world' });
    expect(t.roots.map((id) => t.items[id].nodeId)).toEqual(['start', 'llm', 'answer']);
    expect(t.items.llm).toMatchObject({ status: 'succeeded', elapsedMs: 840, usage: { totalTokens: 42 }, text: 'Hello, world', inputs: {}, outputs: { text: 'Hello, world' } });
    expect(traceTokens(t)).toBe(42);
  });

  it('streams: the answer grows chunk by chunk and unchanged items keep their identity', () => {
    const events = chatRunEvents();
    let t = emptyTrace();
    const answers: string[] = [];
    for (const e of events) {
      const before = t;
      t = applyTraceEvent(t, e);
      if (e.type === 'answer_chunk') {
        answers.push(t.answer);
        expect(t.items.start).toBe(before.items.start);
      }
    }
    expect(answers).toEqual(['Hello', 'Hello, ', 'Hello, world']);
  });

  it('unfolds an iteration by index, each round holding its own execution of the inner node', () => {
    const t = buildTrace(iterationRunEvents());
    expect(t.roots.map((id) => t.items[id].nodeId)).toEqual(['start', 'iteration', 'http', 'end']);
    const it = t.items.iteration;
    expect(it).toMatchObject({ total: 2, status: 'succeeded', outputs: { output: ['A', 'B'] } });
    expect(it.rounds?.map((r) => r.index)).toEqual([0, 1]);
    expect(it.rounds?.map((r) => r.ids.map((id) => t.items[id].outputs))).toEqual([[{ result: 'A' }], [{ result: 'B' }]]);
    expect(t.items[t.roots[2]].status).toBe('skipped');
    expect(t.outputs).toEqual({ result: ['A', 'B'] });
  });

  it('keeps loop rounds in index order with their variables, even when a round arrives out of order', () => {
    const e = eventScript();
    const t = buildTrace([
      e.started('loop', 'loop'),
      e.loopStarted('loop', 3),
      e.loopNext('loop', 1, { n: 1 }),
      e.started('step', 'code', e.inRound('loop', 1)),
      e.loopNext('loop', 0, { n: 0 }),
      e.started('step', 'code', e.inRound('loop', 0)),
    ]);
    expect(t.items.loop.total).toBe(3);
    expect(t.items.loop.rounds?.map((r) => [r.index, r.variables])).toEqual([
      [0, { n: 0 }],
      [1, { n: 1 }],
    ]);
  });

  it('shows a node waiting for a sandbox, its place as it moves, and how long it waited', () => {
    const e = eventScript();
    let t = buildTrace([e.created(), e.runStarted('workflow'), e.started('code', 'code'), e.waiting('code', 'code', 3)]);
    expect(t.items.code).toMatchObject({ status: 'running', waiting: { reason: 'sandbox', ahead: 3 } });
    t = applyTraceEvent(t, e.waiting('code', 'code', 1));
    expect(t.items.code!.waiting).toEqual({ reason: 'sandbox', ahead: 1 });
    t = applyTraceEvent(t, e.waiting('code', 'code', null, 2400));
    expect(t.items.code!.waiting).toBeUndefined();
    expect(t.items.code!.waitedMs).toBe(2400);
    t = applyTraceEvent(t, e.finished('code', 'code', { result: 1 }));
    expect(t.items.code).toMatchObject({ status: 'succeeded', waitedMs: 2400 });
    // A node that ends while it still waits (stop, queue timeout) no longer shows the wait.
    const stopped = buildTrace([e.started('c2', 'code'), e.waiting('c2', 'code', 0), e.failed('c2', 'code', 'Stopped', [], 'stopped')]);
    expect(stopped.items.c2!.waiting).toBeUndefined();
  });

  it('records failures, exceptions and a stopped run', () => {
    const e = eventScript();
    const t = buildTrace([
      e.created(),
      e.started('http', 'http-request'),
      e.finished('http', 'http-request', { body: '' }, { exception: true, handle: 'fail-branch' }),
      e.started('llm', 'llm'),
      e.failed('llm', 'llm', 'cut', [], 'stopped'),
      e.runFailed('stopped', 'Stopped by the user'),
    ]);
    expect(t.items.http).toMatchObject({ status: 'exception', error: { code: 'HTTP-TIMEOUT' }, handle: 'fail-branch' });
    expect(t.items.llm).toMatchObject({ status: 'stopped', error: { code: 'CANCELLED' } });
    expect(t).toMatchObject({ status: 'stopped', error: { message: 'Stopped by the user' } });
  });
});

describe('traceFromStored', () => {
  it('builds the same tree from stored node executions, children listed before their container included', () => {
    const node = (execution_id: string, node_id: string, scope: StoredRun['nodes'][number]['scope'] = []) => ({
      execution_id,
      node_id,
      kind: node_id,
      title: node_id,
      scope,
      status: 'succeeded' as const,
      inputs: {},
      outputs: { id: execution_id },
      handle: null,
      error: null,
      elapsed_ms: 3,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      retries: 0,
      started_at: '2026-01-01T00:00:00Z',
    });
    const frame = (index: number) => [{ containerId: 'it', executionId: 'x-it', index }];
    const t = traceFromStored({
      run: {
        id: 'r1',
        status: 'succeeded',
        inputs: {},
        outputs: { ok: true },
        answer: 'done',
        error: null,
        usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
        steps: 5,
        elapsed_ms: 90,
        conversation_id: null,
        created_at: '2026-01-01T00:00:00Z',
      },
      nodes: [node('x-start', 'start'), node('x-c1', 'code', frame(1)), node('x-it', 'it'), node('x-c0', 'code', frame(0)), node('x-end', 'end')],
    });
    expect(t.roots).toEqual(['x-start', 'x-it', 'x-end']);
    expect(t.items['x-it'].rounds).toEqual([
      { index: 0, ids: ['x-c0'] },
      { index: 1, ids: ['x-c1'] },
    ]);
    expect(t).toMatchObject({ status: 'succeeded', answer: 'done', elapsedMs: 90 });
    expect(traceTokens(t)).toBe(3);
  });
});
