/**
 * Server-sent events over fetch. Runs start with a POST (a body, a bearer token), which EventSource
 * cannot send, so the answer's body stream is parsed here: an incremental parser that takes text in
 * any chunking (a frame split across chunks, several frames in one chunk, CRLF or LF line ends) and
 * hands out complete frames.
 */

/** One event of the stream: its `event:` name (default `message`), the `data:` lines joined by `\n`, and `id:`. */
export interface SseFrame {
  event: string;
  data: string;
  id?: string;
}

export interface SseParser {
  /** Feeds the next piece of text; complete frames go to the callback. */
  push(text: string): void;
  /** The stream ended: a last frame without its blank line is dispatched (servers often omit it). */
  end(): void;
}

/**
 * The incremental parser (the WHATWG event-stream rules that matter here: `field: value` lines,
 * one optional space after the colon, comments starting with `:`, a blank line ends a frame, a frame
 * without data is dropped).
 * @example
 * const p = createSseParser((f) => console.log(f.event, JSON.parse(f.data)));
 * p.push('event: node_started\ndata: {"a"'); p.push(':1}\n\n'); p.end();
 */
export function createSseParser(onFrame: (frame: SseFrame) => void): SseParser {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  let hasData = false;

  const dispatch = () => {
    if (hasData) onFrame({ event: event || 'message', data: data.join('\n'), ...(id !== undefined ? { id } : {}) });
    event = '';
    data = [];
    hasData = false;
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') {
      data.push(value);
      hasData = true;
    } else if (field === 'id') id = value;
    // `retry` and unknown fields do not matter to a fetch-based reader.
  };

  return {
    push(text) {
      buffer += text;
      for (;;) {
        const m = /\r\n|\r|\n/.exec(buffer);
        if (!m) break;
        // A lone CR at the very end may be the first half of CRLF: wait for the next chunk.
        if (m[0] === '\r' && m.index === buffer.length - 1) break;
        line(buffer.slice(0, m.index));
        buffer = buffer.slice(m.index + m[0].length);
      }
    },
    end() {
      if (buffer) line(buffer.replace(/\r$/, ''));
      buffer = '';
      dispatch();
    },
  };
}

/**
 * Reads a byte stream (a fetch body) as SSE frames. Stops reading and cancels the body when `signal`
 * aborts (the reader then throws the abort reason).
 */
export async function* readSseFrames(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseFrame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const ready: SseFrame[] = [];
  const parser = createSseParser((f) => ready.push(f));
  const onAbort = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  let finished = false;
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      // A cancel by the abort ends the read as "done": that is an abort, not the end of the run.
      signal?.throwIfAborted();
      if (done) {
        finished = true;
        parser.push(decoder.decode());
        parser.end();
      } else parser.push(decoder.decode(value, { stream: true }));
      while (ready.length) yield ready.shift()!;
      if (done) return;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // The consumer stopped early (break, throw): close the connection.
    if (!finished) void reader.cancel().catch(() => {});
  }
}
