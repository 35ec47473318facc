import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../../schemas/run';
import type { RunResult } from '../../engine';
import type { StartedRun } from '../runs/launch';
import { difyStream, type DifyRunContext } from './dify-stream';

// Dify's stream of a run, without a server: a `ping` whenever nothing went out for 10 s, and a chat
// run that failed ends with `workflow_finished` then `error` (no `message_end`).

const usage = { promptTokens: 1, completionTokens: 2, totalTokens: 3 };
const base = { runId: 'r1', seq: 0, at: 1_700_000_000_000 };

function started(events: (RunEvent | Promise<void>)[], result: RunResult): StartedRun {
  const done = Promise.resolve(result);
  return {
    created: { type: 'run_created', runId: 'r1', conversationId: 'c1', messageId: 'm1' },
    execution: {
      runId: 'r1',
      result: done,
      cancel: () => undefined,
      async *[Symbol.asyncIterator]() {
        for (const e of events) {
          if (e instanceof Promise) await e;
          else yield e;
        }
      },
    },
    stored: done,
    citations: [],
  };
}

const ctx = (s: StartedRun, chat: boolean): DifyRunContext => ({ started: s, chat, mode: 'chatflow', versionId: 'v1', citations: true, at: base.at });
const frames = async (it: AsyncGenerator<string>) => {
  const out: string[] = [];
  for await (const f of it) out.push(f);
  return out;
};
/** A frame's data (its `data:` line), or undefined for a ping. */
const dataOf = (frame: string) => {
  const line = frame.split('\n').find((l) => l.startsWith('data: '));
  return line === undefined ? undefined : JSON.parse(line.slice(6));
};
const eventOf = (frame: string) => dataOf(frame)?.event ?? frame.trim();
/** A frame's `id:` (the run event's number; the closing frames the numbers after the last). */
const idOf = (frame: string) => frame.match(/^id: (\d+)$/m)?.[1];

afterEach(() => {
  vi.useRealTimers();
});

describe('difyStream', () => {
  it('sends a ping after 10 s without an event, then goes on', async () => {
    vi.useFakeTimers();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const result: RunResult = { runId: 'r1', status: 'succeeded', outputs: { y: 1 }, answer: '', usage, steps: 1, elapsedMs: 12_000, conversation: {} };
    const it = difyStream(ctx(started([{ type: 'run_started', ...base, mode: 'workflow', inputs: {} }, gate], result), false));
    expect(eventOf((await it.next()).value!)).toBe('workflow_started');
    const next = it.next();
    await vi.advanceTimersByTimeAsync(10_000);
    // A ping carries no id: it tells no event.
    expect((await next).value).toBe('event: ping\n\n');
    release();
    const rest = await frames(it);
    expect(rest.map(eventOf)).toEqual(['workflow_finished']);
    expect(dataOf(rest[0]!)).toMatchObject({ task_id: 'r1', workflow_run_id: 'r1', data: { status: 'succeeded', outputs: { y: 1 }, elapsed_time: 12, total_tokens: 3 } });
  });

  it('ends a failed chat run with workflow_finished and an error event', async () => {
    const result: RunResult = { runId: 'r1', status: 'failed', outputs: {}, answer: 'par', error: { code: 'RUN-1100', message: 'The model failed' }, usage, steps: 2, elapsedMs: 5, conversation: {} };
    const out = await frames(difyStream(ctx(started([{ type: 'answer_chunk', ...base, nodeId: 'ans', text: 'par' }], result), true)));
    expect(out.map(eventOf)).toEqual(['message', 'workflow_finished', 'error']);
    // Numbered as the run's log numbers the events (run_created 0): a lost stream resumes after its last id.
    expect(out.map(idOf)).toEqual(['1', '2', '3']);
    expect(dataOf(out[0]!)).toMatchObject({ event: 'message', answer: 'par', id: 'm1', message_id: 'm1', conversation_id: 'c1', task_id: 'r1' });
    expect(dataOf(out[2]!)).toEqual({ event: 'error', task_id: 'r1', message_id: 'm1', conversation_id: 'c1', status: 400, code: 'RUN-1100', message: 'The model failed' });
  });
});
