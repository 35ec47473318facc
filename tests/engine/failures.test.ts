// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { RUN_ERRORS } from '../../src/engine';
import { compile } from '../../src/engine';
import { createExecutorRegistry, defineNodeExecutor, readNodeSettings, retryDelay, type NodeExecutionResult } from '../../src/plugin-sdk';
import { begin, createKit, flow, is, planOf } from './kit';

const chain = (config: Record<string, unknown>) =>
  flow([['s', 'start'], ['a', 'step', { text: 'ok', ...config }], ['e', 'end', { outputs: [{ name: 'text', value: ['a', 'text'] }] }]], [['s', 'a'], ['a', 'e']]);

describe('engine: retry, timeout, error strategies', () => {
  it('retry then success: fails twice, waits with back-off, succeeds on the third try', async () => {
    const kit = createKit();
    const plan = planOf(kit, chain({ failTimes: 2, retry: { enabled: true, maxRetries: 3, intervalMs: 2 } }));
    const r = begin(plan);
    const result = await r.result;
    expect(result).toMatchObject({ status: 'succeeded', outputs: { text: 'ok' } });
    expect(kit.tries.get('a')).toBe(3);
    expect(r.of('node_retry', 'a').map((e) => [e.attempt, e.delayMs, e.error.code])).toEqual([
      [1, 2, 'TEST-FAIL'],
      [2, 4, 'TEST-FAIL'],
    ]);
    expect(r.of('node_finished', 'a')[0]).toMatchObject({ status: 'succeeded', retries: 2 });
    expect(r.of('node_started', 'a')).toHaveLength(1);
  });

  it('retries run out: the node fails the run with its last error', async () => {
    const kit = createKit();
    const plan = planOf(kit, chain({ failTimes: -1, retry: { enabled: true, maxRetries: 2, intervalMs: 1, backoff: 'fixed' } }));
    const r = begin(plan);
    const result = await r.result;
    expect(result).toMatchObject({ status: 'failed', error: { code: 'TEST-FAIL', message: 'try 3 of a failed' } });
    expect(r.of('node_retry', 'a').map((e) => e.delayMs)).toEqual([1, 1]);
    expect(r.of('node_failed', 'a')[0]).toMatchObject({ status: 'failed', retries: 2 });
  });

  it('timeout: a try past timeoutMs fails with NODE_TIMEOUT, and its signal aborts', async () => {
    const kit = createKit();
    const plan = planOf(kit, chain({ gate: 'never', timeoutMs: 15 }));
    const r = begin(plan);
    const result = await r.result;
    expect(result).toMatchObject({ status: 'failed', error: { code: RUN_ERRORS.NODE_TIMEOUT, nodeId: 'a' } });
    expect(kit.aborted.has('a')).toBe(true);
  });

  it('waiting (a queue) stops the timeout and shows as node_waiting events', async () => {
    const kit = createKit();
    const plan = planOf(kit, chain({ queue: 'q', gate: 'work', timeoutMs: 60 }));
    const r = begin(plan);
    await r.until(is('node_waiting', 'a'));
    // Queued for three times the timeout: not a timeout, since the node is not running yet.
    await new Promise((res) => setTimeout(res, 90));
    kit.gate('q:1').resolve();
    await new Promise((res) => setTimeout(res, 90));
    kit.gate('q').resolve();
    setTimeout(() => kit.gate('work').resolve(), 20);
    expect(await r.result).toMatchObject({ status: 'succeeded', outputs: { text: 'ok' } });
    const waits = r.of('node_waiting', 'a');
    expect(waits.map((e) => [e.reason, e.waiting, e.ahead])).toEqual([
      ['sandbox', true, 2],
      ['sandbox', true, 1],
      ['sandbox', false, 0],
    ]);
    expect(waits[2]!.waitedMs).toBeGreaterThanOrEqual(170);
    expect(waits[0]!.executionId).toBe(r.of('node_started', 'a')[0]!.executionId);
  });

  it('after the wait the timeout runs again: work past it still fails with NODE_TIMEOUT', async () => {
    const kit = createKit();
    const plan = planOf(kit, chain({ queue: 'q', gate: 'never', timeoutMs: 30 }));
    const r = begin(plan);
    await r.until(is('node_waiting', 'a'));
    await new Promise((res) => setTimeout(res, 60));
    kit.gate('q:1').resolve();
    kit.gate('q').resolve();
    const result = await r.result;
    expect(result).toMatchObject({ status: 'failed', error: { code: RUN_ERRORS.NODE_TIMEOUT, nodeId: 'a' } });
  });

  it('fail-branch: the failure takes the fail branch, the normal branch is skipped', async () => {
    const kit = createKit();
    const plan = planOf(
      kit,
      flow(
        [
          ['s', 'start'],
          ['a', 'step', { failTimes: -1, errorStrategy: { type: 'fail-branch' } }],
          ['ok', 'step'],
          ['recover', 'step', { text: 'recovered from {{#a.error_message#}}' }],
          ['e', 'end', { outputs: [{ name: 'text', value: ['recover', 'text'] }] }],
        ],
        [['s', 'a'], ['a', 'ok'], ['a', 'recover', 'fail-branch'], ['recover', 'e'], ['ok', 'e']],
      ),
    );
    const r = begin(plan);
    const result = await r.result;
    expect(result).toMatchObject({ status: 'succeeded', outputs: { text: 'recovered from try 1 of a failed' } });
    expect(r.of('node_finished', 'a')[0]).toMatchObject({ status: 'exception', handle: 'fail-branch', error: { code: 'TEST-FAIL' } });
    expect(r.of('node_skipped').map((e) => e.nodeId)).toEqual(['ok']);
  });

  it('default-value: the failure gives the default outputs and the run goes on', async () => {
    const kit = createKit();
    const plan = planOf(kit, chain({ failTimes: -1, errorStrategy: { type: 'default-value', defaults: { text: 'fallback' } } }));
    const r = begin(plan);
    const result = await r.result;
    expect(result).toMatchObject({ status: 'succeeded', outputs: { text: 'fallback' } });
    expect(r.of('node_finished', 'a')[0]).toMatchObject({
      status: 'exception',
      handle: 'source',
      outputs: { text: 'fallback', error_code: 'TEST-FAIL', error_message: 'try 1 of a failed' },
    });
  });

  it('reads the flat settings of plugins/shared/run-settings.ts too', async () => {
    expect(readNodeSettings({ errorStrategy: 'default-value', defaultValues: [{ name: 'text', value: 'x' }], retryEnabled: true, maxRetries: 2, retryIntervalMs: 100, timeoutSeconds: 3 })).toEqual({
      errorStrategy: 'default-value',
      defaults: { text: 'x' },
      retry: { maxRetries: 2, intervalMs: 100, backoff: 'exponential' },
      timeoutMs: 3000,
    });
    expect(retryDelay({ maxRetries: 3, intervalMs: 100, backoff: 'exponential' }, 3)).toBe(400);
    const kit = createKit();
    const plan = planOf(kit, chain({ failTimes: -1, errorStrategy: 'default-value', defaultValues: [{ name: 'text', value: 'flat' }] }));
    expect(await begin(plan).result).toMatchObject({ status: 'succeeded', outputs: { text: 'flat' } });
  });
});

describe('engine: misbehaving executors', () => {
  const withStep = (execute: () => NodeExecutionResult | Promise<NodeExecutionResult>) => {
    const kit = createKit();
    const executors = createExecutorRegistry([...kit.executors.executors.filter((e) => e.kind !== 'step'), defineNodeExecutor({ kind: 'step', execute })]);
    const c = compile(chain({}), { nodes: kit.registries.nodes, executors });
    if (!c.ok) throw new Error('does not compile');
    return c.plan;
  };

  it('a result without an outputs object fails the node with NODE_RESULT_INVALID', async () => {
    const result = await begin(withStep(() => ({ outputs: 'nope' }) as unknown as NodeExecutionResult)).result;
    expect(result.error).toMatchObject({ code: RUN_ERRORS.NODE_RESULT_INVALID, nodeId: 'a' });
  });

  it('a synchronous throw without a code fails the node with NODE_FAILED and its message', async () => {
    const result = await begin(
      withStep(() => {
        throw new TypeError('boom');
      }),
    ).result;
    expect(result.error).toEqual({ code: RUN_ERRORS.NODE_FAILED, message: 'boom', nodeId: 'a' });
  });
});

describe('engine: cancellation', () => {
  it('stopping mid-run aborts every running node and ends the run as stopped', async () => {
    const kit = createKit();
    const plan = planOf(
      kit,
      flow(
        [['s', 'start'], ['a', 'step', { gate: 'a' }], ['b', 'stream', { chunks: ['x', 'y'], gate: 'b' }], ['after', 'step']],
        [['s', 'a'], ['s', 'b'], ['a', 'after'], ['b', 'after']],
      ),
    );
    const stop = new AbortController();
    const r = begin(plan, { signal: stop.signal });
    await r.until(is('node_started', 'a'));
    await r.until(is('node_started', 'b'));
    kit.gate('b:0').resolve();
    await r.until(is('node_chunk', 'b'));
    stop.abort();
    const result = await r.result;
    expect(result).toMatchObject({ status: 'stopped', error: { code: RUN_ERRORS.CANCELLED } });
    expect(kit.aborted).toEqual(new Set(['a', 'b']));
    expect(r.of('node_failed').map((e) => [e.nodeId, e.status, e.error.code]).sort()).toEqual([
      ['a', 'stopped', RUN_ERRORS.CANCELLED],
      ['b', 'stopped', RUN_ERRORS.CANCELLED],
    ]);
    expect(r.of('node_started', 'after')).toHaveLength(0);
    expect(r.events.at(-1)).toMatchObject({ type: 'run_failed', status: 'stopped' });
    // Chunks a stopped node sends later go nowhere.
    kit.gate('b:1').resolve();
    await Promise.resolve();
    expect(r.of('node_chunk', 'b')).toHaveLength(1);
  });

  it('cancel() during a retry wait stops at once', async () => {
    const kit = createKit();
    const plan = planOf(kit, chain({ failTimes: -1, retry: { enabled: true, maxRetries: 5, intervalMs: 60_000 } }));
    const r = begin(plan);
    await r.until(is('node_retry', 'a'));
    r.execution.cancel();
    const result = await r.result;
    expect(result.status).toBe('stopped');
    expect(r.of('node_failed', 'a')[0]).toMatchObject({ status: 'stopped', retries: 1 });
  });

  it('an already aborted signal stops the run before any node', async () => {
    const kit = createKit();
    const plan = planOf(kit, chain({}));
    const result = await begin(plan, { signal: AbortSignal.abort() }).result;
    expect(result).toMatchObject({ status: 'stopped', steps: 0 });
  });
});
