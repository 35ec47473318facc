/**
 * A run stream that outlives its connection (issue 34). Every frame of a console run stream carries
 * `id:` (the event's number in the run's log, kept by the server in PostgreSQL); when the connection
 * drops before the run's last event (a network blip, the serving process restarted, a balancer
 * moving the client), the stream is opened again with `GET …/runs/{run_id}/events` and
 * `Last-Event-ID`, on whichever process answers, and goes on after the last event received: each
 * event is yielded once, in order. A refusal (4xx) or an abort ends it as before.
 */
import { RunStreamEvent } from '../../schemas/run-api';
import { resumableEvents, type NumberedFrame } from './resume-stream';
import { readSseFrames } from './sse';

/** A frame of a run stream: its id (when the server numbered it) and its event (undefined: unknown to this client). */
export type RunFrame = NumberedFrame<RunStreamEvent>;

/** The frames of a run stream, parsed and checked; unknown types and unparsable data give no event. */
export async function* readRunFrames(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<RunFrame> {
  for await (const frame of readSseFrames(body, signal)) {
    const id = frame.id !== undefined && /^\d+$/.test(frame.id) ? Number(frame.id) : undefined;
    let data: unknown;
    try {
      data = JSON.parse(frame.data);
    } catch {
      yield { id };
      continue;
    }
    if (data && typeof data === 'object' && !('type' in data)) data = { ...data, type: frame.event };
    const parsed = RunStreamEvent.safeParse(data);
    yield parsed.success ? { id, event: parsed.data } : { id };
  }
}

/**
 * The events of the stream `first` opened, then of `resume(runId, lastId)` after each drop (./resume-stream.ts).
 * @example
 * yield* resumableRunEvents(await request(ep, body, { responseType: 'stream' }), (run, last) => openEvents(run, last), signal);
 */
export function resumableRunEvents(
  first: ReadableStream<Uint8Array>,
  resume: (runId: string, lastEventId: number) => Promise<ReadableStream<Uint8Array>>,
  signal?: AbortSignal,
): AsyncGenerator<RunStreamEvent> {
  return resumableEvents(first, resume, {
    read: readRunFrames,
    runIdOf: (e) => (e.type === 'run_created' ? e.runId : undefined),
    isLast: (e) => e.type === 'run_finished' || e.type === 'run_failed',
    signal,
  });
}
