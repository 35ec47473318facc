import { describe, expect, it } from 'vitest';
import { createSandboxScheduler, type Admission, type QueuePosition, type SandboxCaller, type SchedulerLimits } from './scheduler';

// The scheduler's rules as bookkeeping; tests/api/sandbox-queue.test.ts checks them with real workers.

const limits = (l: Partial<SchedulerLimits> = {}): SchedulerLimits => ({ slots: 3, perTenant: 10, perUser: 10, queueTimeoutMs: 60_000, ...l });
const caller = (tenantId: string, userId = `${tenantId}-u`): SandboxCaller => ({ tenantId, userId });

/** Admits a job and records when it starts and where it stood in the queue. */
function job(s: ReturnType<typeof createSandboxScheduler>, c: SandboxCaller, name: string, log: string[], opts: { signal?: AbortSignal } = {}) {
  const positions: (QueuePosition | null)[] = [];
  const admission = s.admit(c, { ...opts, onQueue: (p) => positions.push(p) }).then((a) => {
    log.push(a.ok ? name : `${name}:${a.reason}`);
    return a;
  });
  return { admission, positions };
}
const settle = () => new Promise((r) => setTimeout(r, 0));
const lease = async (j: { admission: Promise<Admission> }) => {
  const a = await j.admission;
  if (!a.ok) throw new Error(`not admitted: ${a.reason}`);
  return a;
};

describe('sandbox scheduler', () => {
  it('keeps the last free worker for another tenant', async () => {
    const s = createSandboxScheduler(limits({ slots: 3 }));
    const log: string[] = [];
    const flood = Array.from({ length: 5 }, (_, i) => job(s, caller('a'), `a${i}`, log));
    await settle();
    // Tenant a holds two of the three workers; the third stays free.
    expect(log).toEqual(['a0', 'a1']);
    expect(s.running).toBe(2);
    const other = job(s, caller('b'), 'b0', log);
    await settle();
    expect(log).toEqual(['a0', 'a1', 'b0']);
    expect(other.positions).toEqual([]);
    // Tenant a's queued jobs were told where they stand, in order.
    expect(flood[4]!.positions).toEqual([{ ahead: 2 }]);
    // a and b both run something: the free worker stays kept, a's next waits.
    (await lease(flood[0]!)).release();
    await settle();
    expect(log).toEqual(['a0', 'a1', 'b0']);
    // With two workers free, a takes one.
    (await lease(flood[1]!)).release();
    await settle();
    expect(log.at(-1)).toBe('a2');
    expect(flood[4]!.positions).toEqual([{ ahead: 2 }, { ahead: 1 }]);
    expect(flood[2]!.positions).toEqual([{ ahead: 0 }, null]);
    // A third tenant still finds the kept worker.
    job(s, caller('c'), 'c0', log);
    await settle();
    expect(log.at(-1)).toBe('c0');
  });

  it('with one worker a tenant may use it, since nothing is kept then', async () => {
    const s = createSandboxScheduler(limits({ slots: 1 }));
    const log: string[] = [];
    job(s, caller('a'), 'a0', log);
    await settle();
    expect(log).toEqual(['a0']);
  });

  it('caps a user and a tenant, passing over a capped user in the queue', async () => {
    const s = createSandboxScheduler(limits({ slots: 5, perTenant: 3, perUser: 1 }));
    const log: string[] = [];
    const u1 = [job(s, caller('a', 'u1'), 'u1-0', log), job(s, caller('a', 'u1'), 'u1-1', log)];
    job(s, caller('a', 'u2'), 'u2-0', log);
    job(s, caller('a', 'u3'), 'u3-0', log);
    job(s, caller('a', 'u4'), 'u4-0', log);
    await settle();
    // u1 runs one; u2 and u3 pass u1's second; the tenant cap (3) stops u4.
    expect(log).toEqual(['u1-0', 'u2-0', 'u3-0']);
    (await lease(u1[0]!)).release();
    await settle();
    // A freed place of the tenant goes to its earliest job whose user is not at the cap.
    expect(log.at(-1)).toBe('u1-1');
  });

  it('serves the waiting tenant with the fewest running jobs first, FIFO within a tenant', async () => {
    const s = createSandboxScheduler(limits({ slots: 2 }));
    const log: string[] = [];
    const a0 = job(s, caller('a'), 'a0', log);
    const b0 = job(s, caller('b'), 'b0', log);
    job(s, caller('a'), 'a1', log);
    job(s, caller('a'), 'a2', log);
    job(s, caller('b'), 'b1', log);
    await settle();
    expect(log).toEqual(['a0', 'b0']);
    (await lease(a0)).release();
    await settle();
    // a has none running now, b one: a's next goes first.
    expect(log.at(-1)).toBe('a1');
    (await lease(b0)).release();
    await settle();
    expect(log.at(-1)).toBe('b1');
  });

  it('ends a wait past the limit with timeout, and an aborted wait with aborted', async () => {
    const s = createSandboxScheduler(limits({ slots: 1, queueTimeoutMs: 30 }));
    const log: string[] = [];
    const first = job(s, caller('a'), 'a0', log);
    const late = job(s, caller('a'), 'a1', log);
    const ac = new AbortController();
    const stopped = job(s, caller('a'), 'a2', log, { signal: ac.signal });
    ac.abort();
    expect(await stopped.admission).toMatchObject({ ok: false, reason: 'aborted' });
    const out = await late.admission;
    expect(out).toMatchObject({ ok: false, reason: 'timeout' });
    expect(out.waitedMs).toBeGreaterThanOrEqual(25);
    expect(s.waiting).toBe(0);
    // A release twice counts once.
    const a = await lease(first);
    a.release();
    a.release();
    expect(s.running).toBe(0);
  });

  it('close fails the queued jobs', async () => {
    const s = createSandboxScheduler(limits({ slots: 1 }));
    const log: string[] = [];
    job(s, caller('a'), 'a0', log);
    const queued = job(s, caller('b'), 'b0', log);
    s.close();
    expect(await queued.admission).toMatchObject({ ok: false, reason: 'closed' });
    expect(await s.admit(caller('c'))).toMatchObject({ ok: false, reason: 'closed' });
  });
});
