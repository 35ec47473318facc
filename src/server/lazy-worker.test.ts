import { describe, expect, it } from 'vitest';
import { lazyWorker, WorkerFailed } from './lazy-worker';

const URL_ = new URL('./lazy-worker.fixture.mjs', import.meta.url);

describe('lazyWorker', () => {
  it('starts on the first call, answers by id with its events, and stops when idle', async () => {
    const w = lazyWorker(URL_, { idleMs: 50 });
    expect(w.running()).toBe(false);
    const events: unknown[] = [];
    const [a, b] = await Promise.all([w.call({ text: 'a' }, { onEvent: (e) => events.push(e) }), w.call({ text: 'b' })]);
    expect([a.echo, b.echo]).toEqual(['a', 'b']);
    expect(events).toEqual([1, 2]);
    expect(w.running()).toBe(true);
    await expect(w.call({ fail: true })).rejects.toThrow('bad input');
    await new Promise((r) => setTimeout(r, 300));
    expect(w.running()).toBe(false);
  });

  it('fails the calls a dying worker held with WorkerFailed (not the job\'s own error); the next call starts a new one', async () => {
    const w = lazyWorker(URL_, { idleMs: 1_000 });
    const held = w.call({ hold: true });
    const died = await w.call({ exit: true }).catch((e: unknown) => e);
    expect(died).toBeInstanceOf(WorkerFailed);
    expect(await held.catch((e: unknown) => e)).toBeInstanceOf(WorkerFailed);
    expect((await w.call({ text: 'again' })).echo).toBe('again');
    const stuck = w.call({ hold: true });
    w.restart('took too long');
    await expect(stuck).rejects.toThrow('took too long');
    const controller = new AbortController();
    const cancelled = w.call({ hold: true }, { signal: controller.signal });
    controller.abort();
    await expect(cancelled).rejects.toThrow('cancelled');
    w.restart('done');
  });
});
