/**
 * Reading a portal run's SSE stream: `event: <type>` + `data: <json>` frames, the first `run_created`,
 * then the run events of schemas/run.ts, and for a chat the last `message_end` (the stored answer's
 * ids, citations and usage). Frames of a type this client does not know, or whose data does not parse,
 * are skipped (a newer server may send more kinds). Kept apart from ./portal.ts so tests and stories
 * can feed it any byte stream.
 */
import { z } from 'zod';
import { WebMessageEnd } from '../../schemas/portal';
import { RunStreamEvent } from '../../schemas/run-api';
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

/** Yields the checked events of a portal run stream as they arrive. Aborting `signal` stops reading. */
export async function* readPortalEvents(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<PortalStreamEvent> {
  for await (const frame of readSseFrames(body, signal)) {
    const parsed = PortalStreamEvent.safeParse(dataOf(frame.event, frame.data));
    if (parsed.success) yield parsed.data;
  }
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
