import type { FastifyReply } from 'fastify';

/**
 * The run streams' coalescing window (SseOptions.coalesceMs): at most about 50 writes a second for a
 * stream however fast its tokens come, and no token later than this behind the one before it.
 */
export const RUN_STREAM_COALESCE_MS = 20;

export interface SseOptions {
  /** Called when the client goes away before the stream ended (the frames' iteration has stopped). */
  onClientGone?: () => void;
  /** A failure while producing frames after the headers went out (the connection is then cut). */
  onError: (e: unknown) => void;
  /**
   * Coalesces a token stream's frames (see {@link sendSse}): a frame whose `event:` type already went
   * out less than this many ms ago waits for the end of that window and goes out with the frames
   * held meanwhile, in one write. Off without it.
   */
  coalesceMs?: number;
}

/**
 * Sends `frames` as a text/event-stream, each frame written to the socket the moment it is
 * produced. The reply is hijacked: no stream adapter (`Readable.from` and a pipe) sits between a
 * model's token and the socket, and the connection stays open for the client's next request
 * (keep-alive; a chat message is one request each, and a new connection costs a round trip, two
 * more with TLS). A slow reader is waited for (the socket's drain), never buffered without bound.
 *
 * The first frame is awaited before the headers are written, so a request refused while starting
 * (before any frame) still answers with its error and status through Fastify's error handler.
 * On shutdown the server's close cuts the connections (forceCloseConnections in app.ts): a client
 * that stopped reading cannot hold it.
 *
 * Writes: frames produced in one turn of the event loop already go out as one write (the response
 * corks its socket until the next tick). A model's tokens come one per turn, and each would be a
 * write of its own (a system call, and on loopback the reader's side of TCP too: the largest part
 * of the server thread's time under 200 streams). With `coalesceMs`, a frame of a type written
 * within the last `coalesceMs` (the second token onwards) is held until that window ends and then
 * written with the others held, so a stream makes at most about one write per window however fast
 * its tokens come. A frame of a type not written in the window (the first answer chunk, a node's
 * start or end) goes out at once with whatever is held before it: order and ids are unchanged, and
 * nothing waits longer than the window.
 */
export async function sendSse(reply: FastifyReply, frames: AsyncIterable<string>, opts: SseOptions): Promise<void> {
  const it = frames[Symbol.asyncIterator]();
  const first = await it.next();
  const raw = reply.raw;
  reply.hijack();
  let gone = false;
  const onClose = () => {
    if (!raw.writableFinished) {
      gone = true;
      opts.onClientGone?.();
    }
  };
  raw.on('close', onClose);
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
  const out = opts.coalesceMs ? coalescer(raw, opts.coalesceMs) : undefined;
  try {
    for (let r = first; !r.done; r = await it.next()) {
      if (gone || raw.destroyed) break;
      if (out) await out.frame(r.value);
      else if (!raw.write(r.value)) await drained(raw);
    }
    if (gone || raw.destroyed) {
      out?.drop();
      await it.return?.();
    } else raw.end(out?.take());
  } catch (e) {
    out?.drop();
    opts.onError(e);
    raw.destroy();
  }
}

/** The `event:` line of a frame ('' for a frame without one). */
function typeOf(frame: string): string {
  if (!frame.startsWith('event:')) return '';
  const nl = frame.indexOf('\n');
  return nl < 0 ? frame : frame.slice(0, nl);
}

/**
 * Whether one of `types` (as {@link typeOf} gives them) is `frame`'s: compared in place, so a frame of
 * a type already listed costs no string of its own (a stream has a handful of types, and many frames).
 */
function listed(types: string[], frame: string): boolean {
  for (const t of types) {
    if (t ? frame.startsWith(t) && (frame.length === t.length || frame.charCodeAt(t.length) === 10) : !frame.startsWith('event:')) return true;
  }
  return false;
}

/** The write side of {@link sendSse} with `coalesceMs`: frames written, or held until their window ends. */
function coalescer(raw: FastifyReply['raw'], windowMs: number) {
  let held = '';
  let timer: NodeJS.Timeout | undefined;
  let windowStart = -Infinity;
  /** Types written since the window started, and types of the frames held. */
  let recent: string[] = [];
  let heldTypes: string[] = [];
  let blocked: Promise<void> | undefined;
  const write = (text: string) => {
    if (!raw.write(text)) blocked ??= drained(raw).then(() => (blocked = undefined));
  };
  const flush = () => {
    timer = undefined;
    if (!held || raw.destroyed) return;
    write(take());
    windowStart = performance.now();
    [recent, heldTypes] = [heldTypes, recent];
    heldTypes.length = 0;
  };
  /** What is held, taken out (the caller writes it). */
  const take = () => {
    clearTimeout(timer);
    timer = undefined;
    const text = held;
    held = '';
    return text;
  };
  return {
    async frame(frame: string): Promise<void> {
      // A slow reader is waited for before anything more is taken from the run.
      if (blocked) await blocked;
      const now = performance.now();
      if (now - windowStart >= windowMs) {
        // A quiet stream: at once, and a window starts.
        write(take() + frame);
        windowStart = now;
        recent.length = 0;
        recent.push(typeOf(frame));
        heldTypes.length = 0;
      } else if (raw.socket?.writableCorked || !listed(recent, frame)) {
        // Written in this same turn (the socket is still corked: no write of its own), or a type
        // the client has not had in this window (the first answer chunk): at once, after what is held.
        write(take() + frame);
        for (const t of heldTypes) if (!recent.includes(t)) recent.push(t);
        if (!listed(recent, frame)) recent.push(typeOf(frame));
        heldTypes.length = 0;
      } else {
        held += frame;
        if (!listed(heldTypes, frame)) heldTypes.push(typeOf(frame));
        timer ??= setTimeout(flush, windowMs - (now - windowStart));
      }
    },
    take,
    drop() {
      take();
    },
  };
}

function drained(raw: FastifyReply['raw']): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      raw.off('drain', done);
      raw.off('close', done);
      resolve();
    };
    raw.on('drain', done);
    raw.on('close', done);
  });
}
