import { describe, expect, it } from 'vitest';
import { createSseParser, readSseFrames, type SseFrame } from './sse';

function parseAll(chunks: string[]): SseFrame[] {
  const out: SseFrame[] = [];
  const p = createSseParser((f) => out.push(f));
  for (const c of chunks) p.push(c);
  p.end();
  return out;
}

describe('createSseParser', () => {
  const stream = 'event: node_started\ndata: {"a":1}\n\nevent: answer_chunk\ndata: {"text":"hi"}\n\n';

  it('gives the same frames however the text is split, down to one character a chunk', () => {
    const whole = parseAll([stream]);
    expect(whole).toEqual([
      { event: 'node_started', data: '{"a":1}' },
      { event: 'answer_chunk', data: '{"text":"hi"}' },
    ]);
    expect(parseAll(stream.split(''))).toEqual(whole);
    for (let cut = 1; cut < stream.length; cut++) expect(parseAll([stream.slice(0, cut), stream.slice(cut)])).toEqual(whole);
  });

  it('joins multi-line data with newlines and strips one leading space', () => {
    expect(parseAll(['data: line one\ndata:line two\ndata:  indented\n\n'])).toEqual([{ event: 'message', data: 'line one\nline two\n indented' }]);
  });

  it('reads CRLF and CR line ends, also when CRLF is split across chunks', () => {
    expect(parseAll(['event: x\r\ndata: 1\r', '\n\r\nevent: y\rdata: 2\r\r'])).toEqual([
      { event: 'x', data: '1' },
      { event: 'y', data: '2' },
    ]);
  });

  it('skips comments, frames without data and unknown fields; keeps the id', () => {
    expect(parseAll([': keep-alive\n\nevent: ping\n\nid: 7\nretry: 10\nfoo: bar\ndata: {}\n\n'])).toEqual([{ event: 'message', data: '{}', id: '7' }]);
  });

  it('dispatches a last frame that lacks its blank line when the stream ends', () => {
    expect(parseAll(['event: run_finished\ndata: {"ok":true}'])).toEqual([{ event: 'run_finished', data: '{"ok":true}' }]);
  });
});

describe('readSseFrames', () => {
  const bytes = (parts: string[]) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        const enc = new TextEncoder();
        for (const p of parts) c.enqueue(enc.encode(p));
        c.close();
      },
    });

  it('decodes UTF-8 split inside a character', async () => {
    const enc = new TextEncoder().encode('data: 你好\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(enc.slice(0, 8));
        c.enqueue(enc.slice(8));
        c.close();
      },
    });
    const frames: SseFrame[] = [];
    for await (const f of readSseFrames(body)) frames.push(f);
    expect(frames).toEqual([{ event: 'message', data: '你好' }]);
  });

  it('throws the abort when the signal fires and cancels the body', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('data: 1\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const ctrl = new AbortController();
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const f of readSseFrames(body, ctrl.signal)) {
          seen.push(f.data);
          ctrl.abort();
        }
      })(),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual(['1']);
    expect(cancelled).toBe(true);
  });

  it('reads several frames from one chunk', async () => {
    const frames: string[] = [];
    for await (const f of readSseFrames(bytes(['data: a\n\ndata: b\n\n', 'data: c\n\n']))) frames.push(f.data);
    expect(frames).toEqual(['a', 'b', 'c']);
  });
});
