import type { FastifyReply } from 'fastify';

export interface SseOptions {
  /** Called when the client goes away before the stream ended (the frames' iteration has stopped). */
  onClientGone?: () => void;
  /** A failure while producing frames after the headers went out (the connection is then cut). */
  onError: (e: unknown) => void;
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
  try {
    for (let r = first; !r.done; r = await it.next()) {
      if (gone || raw.destroyed) break;
      if (!raw.write(r.value)) await drained(raw);
    }
    if (gone || raw.destroyed) await it.return?.();
    else raw.end();
  } catch (e) {
    opts.onError(e);
    raw.destroy();
  }
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
