// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { run, RUN_ERRORS } from '../../src/engine';
import { begin, createKit, flow, planOf, type Kit } from './kit';

/** start(list) → iteration { it-start → work(item) } → end(output). */
function iterationFlow(kit: Kit, iteration: Record<string, unknown>, work: Record<string, unknown> = {}) {
  return planOf(
    kit,
    flow(
      [
        ['s', 'start', { variables: [{ name: 'list', type: 'array[string]' }] }],
        ['it', 'iteration', { items: ['s', 'list'], output: ['work', 'text'], ...iteration }],
        ['it-start', 'iteration-start', {}, 'it'],
        ['work', 'step', { text: '{{#it.index#}}:{{#it.item#}}', from: ['it', 'item'], ...work }, 'it'],
        ['e', 'end', { outputs: [{ name: 'out', value: ['it', 'output'] }] }],
      ],
      [['s', 'it'], ['it-start', 'work'], ['it', 'e']],
    ),
  );
}

describe('engine: iteration', () => {
  it('runs the body once per item in order; inner nodes see item and index', async () => {
    const kit = createKit();
    const r = begin(iterationFlow(kit, {}), { inputs: { list: ['a', 'b', 'c'] } });
    const result = await r.result;
    expect(result).toMatchObject({ status: 'succeeded', outputs: { out: ['0:a', '1:b', '2:c'] } });
    expect(r.of('iteration_started')[0]).toMatchObject({ nodeId: 'it', total: 3, parallelism: 1 });
    expect(r.of('iteration_next').map((e) => e.index)).toEqual([0, 1, 2]);
    const inner = r.of('node_finished', 'work');
    expect(inner.map((e) => e.scope.map((f) => `${f.containerId}#${f.index}`))).toEqual([['it#0'], ['it#1'], ['it#2']]);
    expect(new Set(inner.map((e) => e.executionId)).size).toBe(3);
    // Serial: round 1 starts after round 0 is done.
    const t = r.events.map((e) => (e.type === 'node_started' && e.nodeId === 'work' ? `start${e.scope[0].index}` : e.type === 'node_finished' && e.nodeId === 'work' ? `end${e.scope[0].index}` : ''));
    expect(t.filter(Boolean)).toEqual(['start0', 'end0', 'start1', 'end1', 'start2', 'end2']);
  });

  it('parallelism: rounds run at once, up to the setting, and the output keeps item order', async () => {
    const kit = createKit();
    const plan = iterationFlow(kit, { parallelism: 2 }, { gate: 'hold' });
    const r = begin(plan, { inputs: { list: ['a', 'b', 'c'] } });
    await r.until((e) => e.type === 'node_started' && e.nodeId === 'work' && e.scope[0].index === 1);
    await Promise.resolve();
    // Two rounds hold the gate; the third waits for a free slot.
    expect(r.of('node_started', 'work')).toHaveLength(2);
    expect(r.of('iteration_started')[0].parallelism).toBe(2);
    kit.gate('hold').resolve();
    expect(await r.result).toMatchObject({ status: 'succeeded', outputs: { out: ['0:a', '1:b', '2:c'] } });
  });

  it('error mode terminated: a failed round fails the iteration and stops the rounds running beside it', async () => {
    const kit = createKit();
    // Each round also holds a node open beside `work`, so the other rounds are still running.
    const plan = planOf(
      kit,
      flow(
        [
          ['s', 'start', { variables: [{ name: 'list', type: 'array[string]' }] }],
          ['it', 'iteration', { items: ['s', 'list'], output: ['work', 'text'], parallelism: 3 }],
          ['it-start', 'iteration-start', {}, 'it'],
          ['hold', 'step', { gate: 'never' }, 'it'],
          ['work', 'step', { from: ['it', 'item'], failOn: 'b' }, 'it'],
        ],
        [['s', 'it'], ['it-start', 'work'], ['it-start', 'hold']],
      ),
    );
    const r = begin(plan, { inputs: { list: ['a', 'b', 'c'] } });
    const result = await r.result;
    expect(result).toMatchObject({ status: 'failed', error: { code: RUN_ERRORS.ITERATION_FAILED, nodeId: 'it' } });
    expect(r.of('node_failed', 'it')[0].error.message).toContain('Round 1 failed: work refuses b');
    expect(r.of('node_failed', 'hold').map((e) => [e.scope[0].index, e.status]).sort()).toEqual([
      [0, 'stopped'],
      [1, 'stopped'],
      [2, 'stopped'],
    ]);
    expect(kit.aborted.has('hold')).toBe(true);
  });

  it('error mode continue-on-error: a failed round gives null and the others go on', async () => {
    const kit = createKit();
    const r = begin(iterationFlow(kit, { errorMode: 'continue-on-error', parallelism: 2 }, { failOn: 'b' }), { inputs: { list: ['a', 'b', 'c'] } });
    const result = await r.result;
    expect(result).toMatchObject({ status: 'succeeded', outputs: { out: ['0:a', null, '2:c'] } });
    expect(r.of('node_finished', 'it')[0].outputs.failed).toEqual([1]);
  });

  it('error mode remove-abnormal-output: failed rounds are left out', async () => {
    const kit = createKit();
    const r = begin(iterationFlow(kit, { errorMode: 'remove-abnormal-output' }, { failOn: 'a' }), { inputs: { list: ['a', 'b', 'c'] } });
    expect(await r.result).toMatchObject({ status: 'succeeded', outputs: { out: ['1:b', '2:c'] } });
  });

  it('an empty array runs no round', async () => {
    const kit = createKit();
    const r = begin(iterationFlow(kit, {}), { inputs: { list: [] } });
    expect(await r.result).toMatchObject({ status: 'succeeded', outputs: { out: [] } });
    expect(r.of('iteration_next')).toHaveLength(0);
  });

  it('something that is not an array fails the node with ITERATION_INPUT_INVALID', async () => {
    const kit = createKit();
    const result = await begin(iterationFlow(kit, {}), { inputs: { list: 'oops' } }).result;
    expect(result.error).toMatchObject({ code: RUN_ERRORS.ITERATION_INPUT_INVALID });
  });

  it('nesting depth limit: an iteration deeper than maxDepth fails the run with DEPTH_LIMIT', async () => {
    const kit = createKit();
    const result = await begin(iterationFlow(kit, {}), { inputs: { list: ['a'] }, limits: { maxDepth: 0 } }).result;
    expect(result).toMatchObject({ status: 'failed', error: { code: RUN_ERRORS.DEPTH_LIMIT } });
  });

  it('cancellation reaches the nodes inside running rounds', async () => {
    const kit = createKit();
    const r = begin(iterationFlow(kit, { parallelism: 2 }, { gate: 'never' }), { inputs: { list: ['a', 'b'] } });
    await r.until((e) => e.type === 'node_started' && e.nodeId === 'work' && e.scope[0].index === 1);
    r.execution.cancel();
    expect((await r.result).status).toBe('stopped');
    expect(r.of('node_failed', 'work').map((e) => e.status)).toEqual(['stopped', 'stopped']);
    expect(r.of('node_failed', 'it')[0].status).toBe('stopped');
  });
});

/** start → loop { loop-start → inc(count += 1) } → end(count, rounds). */
function loopFlow(kit: Kit, loop: Record<string, unknown>) {
  return planOf(
    kit,
    flow(
      [
        ['s', 'start'],
        ['lp', 'loop', { vars: [{ name: 'count', value: 0 }], ...loop }],
        ['lp-start', 'loop-start', {}, 'lp'],
        ['inc', 'assign', { target: ['lp', 'count'], from: ['lp', 'count'], add: 1 }, 'lp'],
        ['seen', 'step', { text: '{{#lp.index#}}/{{#lp.count#}}' }, 'lp'],
        ['e', 'end', { outputs: [{ name: 'count', value: ['lp', 'count'] }, { name: 'rounds', value: ['lp', 'rounds'] }] }],
      ],
      [['s', 'lp'], ['lp-start', 'inc'], ['inc', 'seen'], ['lp', 'e']],
    ),
  );
}

describe('engine: loop', () => {
  it('loop break: stops when the break condition holds, with the loop variables as written inside', async () => {
    const kit = createKit();
    const r = begin(loopFlow(kit, { maxCount: 10, breakVar: 'count', breakAt: 3 }));
    const result = await r.result;
    expect(result).toMatchObject({ status: 'succeeded', outputs: { count: 3, rounds: 3 } });
    expect(r.of('node_finished', 'lp')[0].outputs.broke).toBe(true);
    expect(r.of('loop_next').map((e) => [e.index, e.variables.count])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
    expect(r.of('node_finished', 'seen').map((e) => e.outputs.text)).toEqual(['0/1', '1/2', '2/3']);
  });

  it('max count: without a break the loop ends after maxCount rounds', async () => {
    const kit = createKit();
    const r = begin(loopFlow(kit, { maxCount: 4 }));
    expect(await r.result).toMatchObject({ status: 'succeeded', outputs: { count: 4, rounds: 4 } });
    expect(r.of('loop_started')[0].maxCount).toBe(4);
  });

  it('the break condition is checked after each round, so a condition true from the start still runs one round', async () => {
    const kit = createKit();
    const r = begin(loopFlow(kit, { maxCount: 4, breakVar: 'count', breakAt: 0 }));
    expect(await r.result).toMatchObject({ outputs: { count: 1, rounds: 1 } });
  });

  it('a node may assign conversation variables but not others', async () => {
    const kit = createKit();
    const doc = flow(
      [['s', 'start'], ['set', 'assign', { target: ['conversation', 'n'], from: ['conversation', 'n'], add: 5 }], ['bad', 'assign', { target: ['sys', 'query'], from: ['conversation', 'n'] }]],
      [['s', 'set'], ['set', 'bad']],
      'chatflow',
      { conversation: [{ id: 'n', name: 'n', type: 'number', value: 1, description: '' }] },
    );
    const result = await begin(planOf(kit, doc)).result;
    expect(result.conversation).toEqual({ n: 6 });
    expect(result.error).toMatchObject({ code: RUN_ERRORS.ASSIGN_INVALID, nodeId: 'bad' });
  });

  it('a step limit counts the rounds inside containers', async () => {
    const kit = createKit();
    const result = await begin(loopFlow(kit, { maxCount: 100 }), { limits: { maxSteps: 20 } }).result;
    expect(result).toMatchObject({ status: 'failed', error: { code: RUN_ERRORS.STEP_LIMIT } });
  });
});

describe('engine: events iterator', () => {
  it('the execution is an async iterable of the same events, ending with the run', async () => {
    const kit = createKit();
    const execution = run(iterationFlow(kit, {}), { inputs: { list: ['x'] } });
    const types: string[] = [];
    for await (const e of execution) types.push(e.type);
    expect(types[0]).toBe('run_started');
    expect(types.at(-1)).toBe('run_finished');
    expect(types).toContain('iteration_next');
    expect((await execution.result).status).toBe('succeeded');
  });
});
