import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { sendSse } from './sse';

const frame = (type: string, id: number) => `event: ${type}\nid: ${id}\ndata: {"n":${id}}\n\n`;
const nextTurn = () => new Promise<void>((r) => setImmediate(r));

/**
 * A real server and a real socket: `flushes` counts what the response hands to the socket's handle
 * (Writable's `_write`/`_writev`: one system call each), and `flushesBefore[k]` how many there had
 * been when the stream produced frame k.
 */
async function serve(frames: (flushes: () => number) => AsyncGenerator<string>, coalesceMs?: number) {
  const app = Fastify();
  let count = 0;
  app.get('/s', async (req, reply) => {
    const socket = reply.raw.socket as unknown as { _write: (...a: unknown[]) => unknown; _writev: (...a: unknown[]) => unknown };
    for (const name of ['_write', '_writev'] as const) {
      const own = socket[name].bind(socket);
      socket[name] = (...a: unknown[]) => {
        count++;
        return own(...a);
      };
    }
    await sendSse(reply, frames(() => count), { onError: (e) => req.log.error(e), ...(coalesceMs ? { coalesceMs } : {}) });
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  closers.push(() => app.close());
  const res = await fetch(`${url}/s`);
  return { body: await res.text(), flushes: count };
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

describe('sendSse', () => {
  // Issues 21/34: each token of a model's answer comes in a turn of its own; written one by one, the
  // socket writes were the largest part of the server thread's time under 200 streams.
  it('with coalesceMs, a token stream goes out in a few writes: the first chunk at once, the next ones held for the window, order and ids kept', async () => {
    const sent: string[] = [];
    const seenAt: number[] = [];
    const tokens = 12;
    const { body, flushes } = await serve(async function* (flushes) {
      sent.push(frame('run_created', 0), frame('node_started', 1));
      yield sent[0]!;
      yield sent[1]!;
      for (let i = 0; i < tokens; i++) {
        await nextTurn();
        seenAt.push(flushes());
        sent.push(frame('answer_chunk', 2 + i));
        yield sent.at(-1)!;
      }
      await nextTurn();
      seenAt.push(flushes());
      sent.push(frame('node_finished', 2 + tokens));
      yield sent.at(-1)!;
    }, 10_000);
    expect(body).toBe(sent.join(''));
    // The headers and the first two frames (one turn), the first chunk (at once), the held chunks
    // with the node's end (a type not yet written: at once), and the end of the body.
    expect(flushes).toBeLessThanOrEqual(4);
    // The first chunk was not held: it had gone out before the stream produced the second one.
    expect(seenAt[1]).toBeGreaterThan(seenAt[0]!);
  });

  it('without coalesceMs each turn is its own write (the stream as before, for the other routes)', async () => {
    const { body, flushes } = await serve(async function* () {
      for (let i = 0; i < 6; i++) {
        await nextTurn();
        yield frame('answer_chunk', i);
      }
    });
    expect(body).toBe(Array.from({ length: 6 }, (_, i) => frame('answer_chunk', i)).join(''));
    expect(flushes).toBeGreaterThanOrEqual(6);
  });

  it('holds a frame no longer than the window: a chunk held at the end of a quiet stream goes out by its timer', async () => {
    let afterWait = 0;
    const { body } = await serve(async function* (flushes) {
      yield frame('answer_chunk', 0);
      await nextTurn();
      yield frame('answer_chunk', 1);
      // The stream waits past the window: the held chunk must not wait for the next frame or the end.
      await new Promise((r) => setTimeout(r, 60));
      afterWait = flushes();
      yield frame('answer_chunk', 2);
    }, 5);
    expect(body).toBe([0, 1, 2].map((i) => frame('answer_chunk', i)).join(''));
    // The headers with the first chunk, then the second chunk (at once or by the window's timer).
    expect(afterWait).toBeGreaterThanOrEqual(2);
  });
});
