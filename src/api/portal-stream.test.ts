import { describe, expect, it } from 'vitest';
import { readPortalEvents, sseBody, type PortalStreamEvent } from './portal-stream';

const RUN = 'run-1';
const usage = { promptTokens: 3, completionTokens: 4, totalTokens: 7 };
const end = {
  type: 'message_end',
  messageId: '11111111-1111-4111-8111-111111111111',
  conversationId: '22222222-2222-4222-8222-222222222222',
  citations: [{ dataset_id: 'd', dataset_name: 'Docs', document_id: 'x', document_name: 'a.md', segment_id: 's', content: 'text', score: 0.8 }],
  usage,
};

/** A body that hands out the text in the given pieces, as a network would. */
function chunked(pieces: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    pull(controller) {
      const next = pieces.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(enc.encode(next));
    },
  });
}

async function all(body: ReadableStream<Uint8Array>): Promise<PortalStreamEvent[]> {
  const out: PortalStreamEvent[] = [];
  for await (const e of readPortalEvents(body)) out.push(e);
  return out;
}

describe('readPortalEvents', () => {
  const text = [
    `event: run_created\ndata: ${JSON.stringify({ type: 'run_created', runId: RUN, conversationId: end.conversationId, messageId: end.messageId })}\n\n`,
    `event: answer_chunk\ndata: ${JSON.stringify({ type: 'answer_chunk', runId: RUN, seq: 1, at: 1, nodeId: 'answer', text: 'Hel' })}\n\n`,
    `event: answer_chunk\ndata: ${JSON.stringify({ type: 'answer_chunk', runId: RUN, seq: 2, at: 2, nodeId: 'answer', text: 'lo' })}\n\n`,
    `event: message_end\ndata: ${JSON.stringify(end)}\n\n`,
  ].join('');

  it('yields run_created, the run events and message_end, however the bytes are split', async () => {
    const whole = await all(chunked([text]));
    expect(whole.map((e) => e.type)).toEqual(['run_created', 'answer_chunk', 'answer_chunk', 'message_end']);
    expect(whole[3]).toEqual(end);
    for (const size of [1, 7, 50]) {
      const pieces: string[] = [];
      for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
      expect(await all(chunked(pieces))).toEqual(whole);
    }
  });

  it('takes the type from the event name when the data has none, and skips unknown or broken frames', async () => {
    const events = await all(
      sseBody(
        [
          'event: answer_chunk\ndata: {"runId":"r","seq":0,"at":0,"nodeId":"a","text":"x"}\n\n',
          'event: something_new\ndata: {"x":1}\n\n',
          'event: answer_chunk\ndata: {not json\n\n',
          ': keep-alive\n\n',
          `event: message_end\ndata: ${JSON.stringify({ ...end, type: undefined })}\n\n`,
        ].join(''),
      ),
    );
    expect(events.map((e) => e.type)).toEqual(['answer_chunk', 'message_end']);
  });

  it('stops reading when the signal aborts', async () => {
    const ctrl = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('event: answer_chunk\ndata: {"runId":"r","seq":0,"at":0,"nodeId":"a","text":"x"}\n\n'));
      },
    });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const e of readPortalEvents(body, ctrl.signal)) {
          seen.push(e.type);
          ctrl.abort();
        }
      })(),
    ).rejects.toThrow();
    expect(seen).toEqual(['answer_chunk']);
  });
});
