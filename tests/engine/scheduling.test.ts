// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { RunEvent } from '../../schemas/run';
import { compile, RUN_ERRORS } from '../../src/engine';
import { begin, createKit, flow, is, planOf } from './kit';

describe('engine: compile', () => {
  it('builds a plan for a valid flow', () => {
    const kit = createKit();
    const c = compile(flow([['s', 'start'], ['a', 'step'], ['e', 'end']], [['s', 'a'], ['a', 'e']]), kit.registries);
    expect(c.ok).toBe(true);
    if (c.ok) expect(c.plan.root.nodes.map((n) => n.id)).toEqual(['s', 'a', 'e']);
  });

  it('refuses a flow without a start, with two starts, with a cycle, with an unreachable node', () => {
    const kit = createKit();
    const codes = (doc: ReturnType<typeof flow>) => {
      const c = compile(doc, kit.registries, { validate: false });
      return c.ok ? [] : c.issues.map((i) => i.code);
    };
    expect(codes(flow([['a', 'step']], []))).toContain(RUN_ERRORS.START_MISSING);
    expect(codes(flow([['s', 'start'], ['t', 'start']], []))).toContain(RUN_ERRORS.START_DUPLICATE);
    expect(codes(flow([['s', 'start'], ['a', 'step'], ['b', 'step']], [['s', 'a'], ['a', 'b'], ['b', 'a']]))).toContain(RUN_ERRORS.CYCLE);
    expect(codes(flow([['s', 'start'], ['a', 'step'], ['lonely', 'step']], [['s', 'a']]))).toEqual([RUN_ERRORS.UNREACHABLE]);
  });

  it('refuses a kind without an executor, and reports the registry issues', () => {
    const kit = createKit();
    const bare = { ...kit.registries, executors: kit.executors.extend([]) };
    const noStep = { nodes: kit.registries.nodes, executors: createKitWithout('step') };
    const c1 = compile(flow([['s', 'start'], ['a', 'step']], [['s', 'a']]), noStep);
    expect(c1.ok ? [] : c1.issues.map((i) => `${i.code}:${i.nodeId}`)).toEqual([`${RUN_ERRORS.EXECUTOR_MISSING}:a`]);
    const c2 = compile(flow([['s', 'start'], ['a', 'step', { from: ['ghost', 'value'] }]], [['s', 'a']]), bare);
    expect(c2.ok ? undefined : c2.issues[0]).toMatchObject({ code: RUN_ERRORS.FLOW_INVALID, nodeId: 'a', issue: { key: 'issues.referenceMissing' } });
  });
});

function createKitWithout(kind: string) {
  const kit = createKit();
  return { ...kit.executors, get: (k: string) => (k === kind ? undefined : kit.executors.get(k)), has: (k: string) => k !== kind && kit.executors.has(k) };
}

describe('engine: scheduling', () => {
  it('runs a chain, passes values along and collects the end outputs', async () => {
    const kit = createKit();
    const plan = planOf(
      kit,
      flow(
        [
          ['s', 'start', { variables: [{ name: 'name', type: 'string' }] }],
          ['a', 'step', { text: 'Hello {{#s.name#}}', from: ['s', 'name'] }],
          ['e', 'end', { outputs: [{ name: 'greeting', value: ['a', 'text'] }] }],
        ],
        [['s', 'a'], ['a', 'e']],
      ),
    );
    const r = begin(plan, { inputs: { name: 'Ada' } });
    const result = await r.result;
    expect(result).toMatchObject({ status: 'succeeded', outputs: { greeting: 'Hello Ada' }, steps: 3 });
    expect(r.of('node_started', 'a')[0].inputs).toEqual({ 's.name': 'Ada' });
    // Every event fits the contract, in sequence.
    for (const e of r.events) expect(RunEvent.safeParse(e).success).toBe(true);
    expect(r.events.map((e) => e.seq)).toEqual(r.events.map((_, i) => i));
    expect(r.events[0].type).toBe('run_started');
    expect(r.events.at(-1)!.type).toBe('run_finished');
  });

  it('parallel + join: branches run at the same time and the join waits for both', async () => {
    const kit = createKit();
    const plan = planOf(
      kit,
      flow(
        [['s', 'start'], ['a', 'step', { gate: 'a' }], ['b', 'step', { gate: 'b' }], ['j', 'step'], ['e', 'end']],
        [['s', 'a'], ['s', 'b'], ['a', 'j'], ['b', 'j'], ['j', 'e']],
      ),
    );
    const r = begin(plan);
    // Both started while neither is done: they run concurrently.
    await r.until(is('node_started', 'a'));
    await r.until(is('node_started', 'b'));
    kit.gate('b').resolve();
    await r.until(is('node_finished', 'b'));
    await Promise.resolve();
    expect(r.of('node_started', 'j')).toHaveLength(0);
    kit.gate('a').resolve();
    await r.result;
    const t = r.trail();
    expect(t.indexOf('node_started:j')).toBeGreaterThan(t.indexOf('node_finished:a'));
    expect(t.indexOf('node_started:j')).toBeGreaterThan(t.indexOf('node_finished:b'));
    expect(r.of('node_started', 'j')).toHaveLength(1);
  });

  it('skips the branch not taken and everything only it feeds; a join after both branches still runs', async () => {
    const kit = createKit();
    const plan = planOf(
      kit,
      flow(
        [
          ['s', 'start', { variables: [{ name: 'go', type: 'string' }] }],
          ['if', 'branch', { cases: [{ id: 'yes', when: ['s', 'go'] }] }],
          ['y1', 'step'],
          ['y2', 'step'],
          ['n1', 'step'],
          ['n2', 'step'],
          ['join', 'step'],
        ],
        [['s', 'if'], ['if', 'y1', 'yes'], ['y1', 'y2'], ['if', 'n1', 'else'], ['n1', 'n2'], ['y2', 'join'], ['n2', 'join']],
      ),
    );
    const r = begin(plan, { inputs: { go: '' } });
    await r.result;
    expect(r.of('node_skipped').map((e) => e.nodeId).sort()).toEqual(['y1', 'y2']);
    expect(r.of('node_finished').map((e) => e.nodeId)).toEqual(['s', 'if', 'n1', 'n2', 'join']);
    expect(r.of('node_finished', 'if')[0].handle).toBe('else');
  });

  it('fails the run when a node fails without an error strategy, stopping the other branch', async () => {
    const kit = createKit();
    const plan = planOf(kit, flow([['s', 'start'], ['slow', 'step', { gate: 'never' }], ['bad', 'step', { failTimes: -1 }]], [['s', 'slow'], ['s', 'bad']]));
    const r = begin(plan);
    const result = await r.result;
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({ code: 'TEST-FAIL', nodeId: 'bad' });
    expect(r.of('node_failed', 'bad')[0].status).toBe('failed');
    expect(r.of('node_failed', 'slow')[0]).toMatchObject({ status: 'stopped', error: { code: RUN_ERRORS.ABORTED } });
    expect(kit.aborted.has('slow')).toBe(true);
    expect(r.events.at(-1)).toMatchObject({ type: 'run_failed', status: 'failed' });
  });

  it('step limit: a run past maxSteps fails with STEP_LIMIT', async () => {
    const kit = createKit();
    const ids = Array.from({ length: 10 }, (_, i) => `n${i}`);
    const plan = planOf(kit, flow([['s', 'start'], ...ids.map((id) => [id, 'step'] as [string, string])], ids.map((id, i) => [i ? ids[i - 1] : 's', id] as [string, string])));
    const result = await begin(plan, { limits: { maxSteps: 5 } }).result;
    expect(result).toMatchObject({ status: 'failed', error: { code: RUN_ERRORS.STEP_LIMIT }, steps: 6 });
  });

  it('run time limit: a run past maxRunTimeMs fails with TIME_LIMIT and stops its nodes', async () => {
    const kit = createKit();
    const plan = planOf(kit, flow([['s', 'start'], ['w', 'step', { gate: 'never' }]], [['s', 'w']]));
    const r = begin(plan, { limits: { maxRunTimeMs: 20 } });
    const result = await r.result;
    expect(result).toMatchObject({ status: 'failed', error: { code: RUN_ERRORS.TIME_LIMIT } });
    expect(r.of('node_failed', 'w')[0]).toMatchObject({ status: 'stopped', error: { code: RUN_ERRORS.TIME_LIMIT } });
  });

  it('variable pool: sys, env and conversation variables resolve in templates and selectors', async () => {
    const kit = createKit();
    const plan = planOf(
      kit,
      flow(
        [
          ['s', 'start'],
          ['a', 'step', { text: '{{#sys.query#}}|{{#sys.user_id#}}|{{#env.REGION#}}|{{#conversation.topic#}}|{{#sys.workflow_run_id#}}', from: ['sys', 'files'] }],
          ['ans', 'answer', { answer: '{{#a.text#}}' }],
        ],
        [['s', 'a'], ['a', 'ans']],
        'chatflow',
        {
          env: [{ id: 'r', name: 'REGION', type: 'string', value: 'eu', description: '' }],
          conversation: [{ id: 't', name: 'topic', type: 'string', value: 'none', description: '' }],
        },
      ),
    );
    const result = await begin(plan, { runId: 'run-1', sys: { query: 'hi', user_id: 'u1' }, conversation: { topic: 'cats' } }).result;
    expect(result.answer).toBe('hi|u1|eu|cats|run-1');
    expect(result.conversation).toEqual({ topic: 'cats' });
  });
});
