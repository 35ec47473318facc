/**
 * A run stream that outlives its connection (issue 34). Every frame of a console run stream carries
 * `id:` (the event's number in the run's log, kept by the server in PostgreSQL); when the connection
 * drops before the run's last event (a network blip, the serving process restarted, a balancer
 * moving the client), the stream is opened again with `GET …/runs/{run_id}/events` and
 * `Last-Event-ID`, on whichever process answers, and goes on after the last event received: each
 * event is yielded once, in order. A refusal (4xx) or an abort ends it as before.
 */
import { RunStreamEvent } from '../../schemas/run-api';
import { ApiError, isAbortError } from './request';
import { readSseFrames } from './sse';

/** Reconnects in a row without a new event before the stream gives up (and throws the last error). */
const RESUME_TRIES = 5;
/** The wait before reconnect n is n × this (a restarting process needs a moment). */
const RESUME_DELAY_MS = 250;

/** A frame of a run stream: its id (when the server numbered it) and its event (undefined: unknown to this client). */
export interface RunFrame {
  id?: number;
  event?: RunStreamEvent;
}

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

/** Whether reconnecting may help: no answer at all (network) or the server's own failure, not a refusal. */
const retryable = (e: unknown) => !(e instanceof ApiError) || e.status === 0 || e.status >= 500;

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/**
 * The events of the stream `first` opened, then of `resume(runId, lastId)` after each drop.
 * @example
 * yield* resumableRunEvents(await request(ep, body, { responseType: 'stream' }), (run, last) => openEvents(run, last), signal);
 */
export async function* resumableRunEvents(
  first: ReadableStream<Uint8Array>,
  resume: (runId: string, lastEventId: number) => Promise<ReadableStream<Uint8Array>>,
  signal?: AbortSignal,
): AsyncGenerator<RunStreamEvent> {
  let body = first;
  let runId: string | undefined;
  let last: number | undefined;
  let ended = false;
  let failures = 0;
  for (;;) {
    let error: unknown;
    try {
      for await (const f of readRunFrames(body, signal)) {
        if (f.id !== undefined) {
          // Already received (a server may start a resumed stream a little early): not again.
          if (last !== undefined && f.id <= last) continue;
          last = f.id;
        }
        if (!f.event) continue;
        failures = 0;
        if (f.event.type === 'run_created') runId = f.event.runId;
        else if (f.event.type === 'run_finished' || f.event.type === 'run_failed') ended = true;
        yield f.event;
      }
    } catch (e) {
      error = e;
    }
    // Over: the run's end came, the client stopped, or the stream cannot be resumed (no run or ids yet).
    if (ended || signal?.aborted || isAbortError(error) || runId === undefined || last === undefined) {
      if (error !== undefined) throw error;
      return;
    }
    for (;;) {
      if (++failures > RESUME_TRIES) {
        if (error !== undefined) throw error;
        return;
      }
      await pause(RESUME_DELAY_MS * failures, signal);
      try {
        body = await resume(runId, last);
        break;
      } catch (e) {
        if (isAbortError(e) || !retryable(e)) throw e;
        error = e;
      }
    }
  }
}
