/**
 * A stream of a run that outlives its connection (issue 34), whatever the frames say: the console's
 * run streams (./run-stream.ts) and the portal's (./portal-stream.ts). Every frame carries `id:` (the
 * event's number in the run's log, kept by the server in PostgreSQL); when the connection drops
 * before the stream's last word (a network blip, the serving process restarted, a balancer moving
 * the client), the stream is opened again with `Last-Event-ID` on whichever process answers and
 * goes on after the last frame received: each event is yielded once, in order. A refusal (4xx) or
 * an abort ends it as before. No zod here: the portal loads this with its first message.
 */
import { ApiError, isAbortError } from './request';

/** Reconnects in a row without a new event before the stream gives up (and throws the last error). */
export const RESUME_TRIES = 5;
/** The wait before reconnect n is n × this (a restarting process needs a moment). */
export const RESUME_DELAY_MS = 250;

/** A frame as read: its id (when the server numbered it) and its event (undefined: unknown to this client). */
export interface NumberedFrame<E> {
  id?: number;
  event?: E;
}

export interface ResumeOptions<E> {
  /** Parses a body into frames. */
  read(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncIterable<NumberedFrame<E>>;
  /** The run the stream is about, from its first event (`run_created`). */
  runIdOf(event: E): string | undefined;
  /** The stream's last word: nothing comes after it. */
  isLast(event: E): boolean;
  /** The run's end: a stream the server then closes cleanly is over even without a last word. */
  isRunEnd?(event: E): boolean;
  signal?: AbortSignal;
  /** Told `true` when the connection dropped and a reconnect is under way, `false` once events flow again. */
  onReconnecting?(reconnecting: boolean): void;
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
 * yield* resumableEvents(body, (run, last) => openEvents(run, last), { read, runIdOf, isLast, signal });
 */
export async function* resumableEvents<E>(
  first: ReadableStream<Uint8Array>,
  resume: (runId: string, lastEventId: number) => Promise<ReadableStream<Uint8Array>>,
  opts: ResumeOptions<E>,
): AsyncGenerator<E> {
  const { signal } = opts;
  let body = first;
  let runId: string | undefined;
  let last: number | undefined;
  let over = false;
  let runEnded = false;
  let failures = 0;
  let reconnecting = false;
  const tell = (now: boolean) => {
    if (reconnecting === now) return;
    reconnecting = now;
    opts.onReconnecting?.(now);
  };
  try {
    for (;;) {
      let error: unknown;
      try {
        for await (const f of opts.read(body, signal)) {
          if (f.id !== undefined) {
            // Already received (a server may start a resumed stream a little early): not again.
            if (last !== undefined && f.id <= last) continue;
            last = f.id;
          }
          if (f.event === undefined) continue;
          failures = 0;
          tell(false);
          runId ??= opts.runIdOf(f.event);
          if (opts.isLast(f.event)) over = true;
          else if (opts.isRunEnd?.(f.event)) runEnded = true;
          yield f.event;
        }
      } catch (e) {
        error = e;
      }
      // Over: the last word came (or the run's end and a clean close), the client stopped, or the
      // stream cannot be resumed (no run or ids yet).
      if (over || (runEnded && error === undefined) || signal?.aborted || isAbortError(error) || runId === undefined || last === undefined) {
        if (error !== undefined) throw error;
        return;
      }
      for (;;) {
        if (++failures > RESUME_TRIES) {
          if (error !== undefined) throw error;
          return;
        }
        tell(true);
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
  } finally {
    tell(false);
  }
}
