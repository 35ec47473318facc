import { afterAll, describe, expect, it } from 'vitest';
import { NodeExecutionError } from '../../src/plugin-sdk/executor';
import { createCodeSandbox, createSandboxService, sandboxOptions, type CodeSandboxOptions, type SandboxCaller, type SandboxOutcome } from '../../src/server/sandbox';
import { readSettings } from '../../src/server/settings';
import { flow, runBuiltin } from '../engine/builtin-kit';

// The sandbox's scheduler with real workers: fairness between tenants and users, the queue's own
// wait limit and error, the operator's time cap, and (issue 34) real flows whose code nodes wait
// for a worker without that counting against their timeout. Assertions are on order and states,
// not on tight timings: the machine is shared.

const sandboxes: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(sandboxes.map((s) => s.close())));

function sandboxOf(options: CodeSandboxOptions) {
  const sandbox = createCodeSandbox(options);
  sandboxes.push(sandbox);
  return sandbox;
}

/** A workflow whose code node spins for `ms` and may take `timeoutSeconds`. */
const spinFlow = (ms: number, timeoutSeconds: number) =>
  flow(
    [
      ['s', 'start'],
      ['c', 'code', { inputs: [], code: `function main() { const end = Date.now() + ${ms}; while (Date.now() < end) {} return { done: true } }`, outputs: [{ name: 'done', type: 'boolean' }], timeoutSeconds }],
      ['e', 'end', { outputs: [{ name: 'done', selector: ['c', 'done'] }] }],
    ],
    [
      ['s', 'c'],
      ['c', 'e'],
    ],
  );

/** Starts `n` runs at once, spread over two tenants, and waits for all their results. */
async function many(sandbox: ReturnType<typeof createCodeSandbox>, n: number) {
  const doc = spinFlow(250, 3);
  const runs = Array.from({ length: n }, (_, i) => {
    const caller = { tenantId: `tenant-${i % 2}`, userId: `user-${i % 2}` };
    return runBuiltin(doc, { services: { sandbox: createSandboxService(sandbox, caller) } });
  });
  return Promise.all(runs.map(async (r) => ({ result: await r.result, events: r.events })));
}

describe('the sandbox queue and the node timeout (issue 34)', () => {
  it('50 runs of a 250 ms loop with a 3 s timeout on 2 workers: none times out', async () => {
    const sandbox = sandboxOf({ maxWorkers: 2, queueTimeoutMs: 120_000 });
    const outcomes = await many(sandbox, 50);
    const failed = outcomes.filter((o) => o.result.status !== 'succeeded').map((o) => o.result.error?.code);
    expect(failed).toEqual([]);
    // Most of them queued, and said so while they waited.
    const waited = outcomes.filter((o) => o.events.some((e) => e.type === 'node_waiting'));
    expect(waited.length).toBeGreaterThan(25);
  }, 120_000);

  it('with a short wait limit the queued runs fail with the queue error, never a timeout', async () => {
    const sandbox = sandboxOf({ maxWorkers: 2, queueTimeoutMs: 1000 });
    const outcomes = await many(sandbox, 30);
    const codes = outcomes.map((o) => (o.result.status === 'succeeded' ? 'ok' : o.result.error?.code));
    expect(codes).toContain('ok');
    expect(codes).toContain('SANDBOX-QUEUE-TIMEOUT');
    expect(codes.filter((c) => c !== 'ok' && c !== 'SANDBOX-QUEUE-TIMEOUT')).toEqual([]);
  }, 120_000);
});

/** A job spinning for `ms`; it returns when it ran, by the sandbox's own clock. */
const spin = (ms: number, caller: SandboxCaller) => ({
  language: 'javascript',
  code: `function main() { const from = Date.now(); while (Date.now() < from + ${ms}) {} return { from, to: Date.now() } }`,
  inputs: {},
  timeoutMs: 20_000,
  caller,
});

interface Ran {
  name: string;
  out: SandboxOutcome;
  /** Where it stood each time the queue told it (null: a worker took it). */
  queue: ({ ahead: number } | null)[];
}

function tracked(sandbox: ReturnType<typeof createCodeSandbox>, name: string, job: ReturnType<typeof spin>, done?: string[]): Promise<Ran> {
  const queue: Ran['queue'] = [];
  return sandbox.run(job, { onQueue: (q) => queue.push(q) }).then((out) => {
    done?.push(name);
    return { name, out, queue };
  });
}

/** When a job ran (from its outputs). */
function span(r: Ran): { from: number; to: number } {
  if (!r.out.ok) throw new Error(`${r.name} failed: ${r.out.error.code}`);
  return r.out.outputs as { from: number; to: number };
}

/** No two of the jobs ran at the same time, and they ran in the order given. */
function oneAtATime(runs: Ran[]) {
  for (let i = 1; i < runs.length; i++) expect(span(runs[i]!).from).toBeGreaterThanOrEqual(span(runs[i - 1]!).to);
}

const a1 = { tenantId: 'tenant-a', userId: 'a1' };
const a2 = { tenantId: 'tenant-a', userId: 'a2' };
const b1 = { tenantId: 'tenant-b', userId: 'b1' };

describe('sandbox fairness (issue 20, finding 4)', () => {
  it("another tenant's trivial run starts at once while one user floods the sandbox", async () => {
    const sandbox = sandboxOf({ maxWorkers: 2, queueTimeoutMs: 60_000 });
    const done: string[] = [];
    const flood = [0, 1, 2].map((i) => tracked(sandbox, `a${i}`, spin(800, a1), done));
    const b = await tracked(sandbox, 'b', spin(0, b1), done);
    // b never waited, and it ran while the flood's first loop still ran: before any of its queued jobs.
    expect(done[0]).toBe('b');
    expect(b.out).toMatchObject({ ok: true, queuedMs: 0 });
    expect(b.queue).toEqual([]);
    const runs = await Promise.all(flood);
    expect(span(b).from).toBeLessThan(span(runs[0]!).to);
    // The flood's others waited, told how many of their tenant's jobs were ahead, then ran one at a
    // time in order (the second worker is kept for other tenants).
    expect(runs[0]!.queue).toEqual([]);
    expect(runs[1]!.queue).toEqual([{ ahead: 0 }, null]);
    expect(runs[2]!.queue).toEqual([{ ahead: 1 }, { ahead: 0 }, null]);
    oneAtATime(runs);
  }, 60_000);

  it('caps the runs of one user: a teammate goes first', async () => {
    const sandbox = sandboxOf({ maxWorkers: 3, maxPerTenant: 2, maxPerUser: 1, queueTimeoutMs: 60_000 });
    const done: string[] = [];
    const mine = [0, 1, 2].map((i) => tracked(sandbox, `m${i}`, spin(400, a1), done));
    const teammate = await tracked(sandbox, 't', spin(0, a2), done);
    expect(done[0]).toBe('t');
    const runs = await Promise.all(mine);
    expect(teammate.out).toMatchObject({ ok: true, queuedMs: 0 });
    // One of a1's jobs at a time, though a worker was free.
    expect(runs[1]!.queue.length).toBeGreaterThan(0);
    oneAtATime(runs);
  }, 60_000);
  it('a job that waits past the queue limit fails with SANDBOX-QUEUE-TIMEOUT, not a run timeout', async () => {
    const sandbox = sandboxOf({ maxWorkers: 2, queueTimeoutMs: 300 });
    const first = sandbox.run(spin(1500, a1));
    const second = await sandbox.run(spin(10, a1));
    expect(second.ok).toBe(false);
    expect(second).toMatchObject({ ok: false, error: { code: 'SANDBOX-QUEUE-TIMEOUT', message: expect.stringContaining('300 ms') } });
    expect(second.queuedMs).toBeGreaterThanOrEqual(250);
    expect((await first).ok).toBe(true);
    // Executors see it as a NodeExecutionError with the same code.
    const service = createSandboxService(sandbox, a1);
    const blocker = sandbox.run(spin(1500, a1));
    const err = await service.run(spin(10, a1), { signal: new AbortController().signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeExecutionError);
    expect(err).toMatchObject({ code: 'SANDBOX-QUEUE-TIMEOUT' });
    await blocker;
  }, 60_000);

  it("clamps a job's time limit to the operator's maximum and says so", async () => {
    expect(createCodeSandbox().limits.maxTimeoutMs).toBe(60_000);
    const sandbox = sandboxOf({ maxTimeoutMs: 500 });
    const out = await sandbox.run({ language: 'javascript', code: 'function main() { for (;;) {} }', inputs: {}, timeoutMs: 10_000 });
    expect(out).toMatchObject({ ok: false, error: { code: 'SANDBOX-TIMEOUT', message: expect.stringContaining("500 ms (the server's maximum") } });
    // Ended by the clamped limit, not the 10 s asked for (which could not end before 10 000 ms).
    expect(out.elapsedMs).toBeLessThan(10_000);
  }, 60_000);
});

describe('sandbox settings', () => {
  it('reads the limits from the environment, with defaults from the worker count', () => {
    const defaults = createCodeSandbox(sandboxOptions(readSettings({ WEFT_SANDBOX_WORKERS: '4' })));
    expect(defaults.limits).toEqual({ maxWorkers: 4, maxPerTenant: 3, maxPerUser: 2, queueTimeoutMs: 30_000, maxTimeoutMs: 60_000 });
    void defaults.close();
    expect(readSettings({}).sandboxWorkers).toBeGreaterThanOrEqual(2);
    const set = readSettings({
      WEFT_SANDBOX_WORKERS: '6',
      WEFT_SANDBOX_TENANT_CONCURRENCY: '2',
      WEFT_SANDBOX_USER_CONCURRENCY: '1',
      WEFT_SANDBOX_QUEUE_TIMEOUT_MS: '5000',
      WEFT_SANDBOX_MAX_TIMEOUT_MS: '120000',
      WEFT_SANDBOX_MEMORY_MB: '64',
    });
    expect(sandboxOptions(set)).toEqual({ maxWorkers: 6, maxPerTenant: 2, maxPerUser: 1, queueTimeoutMs: 5000, maxTimeoutMs: 120_000, defaultMemoryMb: 64, maxMemoryMb: 64, keepWarm: 1 });
    expect(() => readSettings({ WEFT_SANDBOX_MEMORY_MB: '8' })).toThrow();
  });
});
