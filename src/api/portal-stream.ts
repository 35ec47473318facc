/**
 * Reading a portal run's SSE stream: `event: <type>` + `data: <json>` frames, the first `run_created`,
 * then the run events of schemas/run.ts, and for a chat the last `message_end` (the stored answer's
 * ids, citations and usage). Frames of a type this client does not know, or whose data does not parse,
 * are skipped (a newer server may send more kinds). A dropped connection is resumed after the last
 * frame's id ({@link resumablePortalEvents}). Kept apart from ./portal.ts so tests and stories
 * can feed it any byte stream.
 */
import { z } from 'zod';
import { WebMessageEnd } from '../../schemas/portal';
import { RunStreamEvent } from '../../schemas/run-api';
import { resumableEvents, type NumberedFrame } from './resume-stream';
import { readSseFrames } from './sse';

export const PortalStreamEvent = z.union([RunStreamEvent, WebMessageEnd]);
export type PortalStreamEvent = z.infer<typeof PortalStreamEvent>;

/** The frame's JSON, with the frame's event name as its `type` when the data has none. */
function dataOf(event: string, text: string): unknown {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  return data && typeof data === 'object' && !Array.isArray(data) && !('type' in data) ? { ...data, type: event } : data;
}

/** The frames of a portal run stream with their ids; an event this client does not know gives none. */
export async function* readPortalFrames(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<NumberedFrame<PortalStreamEvent>> {
  for await (const frame of readSseFrames(body, signal)) {
    const id = frame.id !== undefined && /^\d+$/.test(frame.id) ? Number(frame.id) : undefined;
    const parsed = PortalStreamEvent.safeParse(dataOf(frame.event, frame.data));
    yield parsed.success ? { id, event: parsed.data } : { id };
  }
}

/** Yields the checked events of a portal run stream as they arrive. Aborting `signal` stops reading. */
export async function* readPortalEvents(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<PortalStreamEvent> {
  for await (const frame of readPortalFrames(body, signal)) if (frame.event) yield frame.event;
}

/**
 * The events of a portal run stream that resumes after a dropped connection (./resume-stream.ts):
 * `resume(runId, lastId)` opens `GET …/runs/{run_id}/events` with Last-Event-ID. A chat's last word
 * is `message_end`; a workflow's, the run's end.
 */
export function resumablePortalEvents(
  first: ReadableStream<Uint8Array>,
  resume: (runId: string, lastEventId: number) => Promise<ReadableStream<Uint8Array>>,
  opts: { chat: boolean; signal?: AbortSignal; onReconnecting?: (reconnecting: boolean) => void },
): AsyncGenerator<PortalStreamEvent> {
  const runEnd = (e: PortalStreamEvent) => e.type === 'run_finished' || e.type === 'run_failed';
  return resumableEvents(first, resume, {
    read: readPortalFrames,
    runIdOf: (e) => (e.type === 'run_created' ? e.runId : undefined),
    isLast: opts.chat ? (e) => e.type === 'message_end' : runEnd,
    isRunEnd: runEnd,
    signal: opts.signal,
    onReconnecting: opts.onReconnecting,
  });
}

/** A byte stream of the given frames (tests and stories script runs with it). */
export function sseBody(frames: readonly { event: string; data: unknown }[] | string): ReadableStream<Uint8Array> {
  const text = typeof frames === 'string' ? frames : frames.map((f) => `event: ${f.event}\ndata: ${JSON.stringify(f.data)}\n\n`).join('');
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
