import { describe, expect, it } from 'vitest';
import type { WebMessage } from '../../../../schemas/portal';
import { emptyChat, FIRST_INDEX, streamingMessage, withEvent, withOlder, withRegenerating, withSent, withStreamEnd } from './chat-state';

const C = '22222222-2222-4222-8222-222222222222';
const usage = { promptTokens: 1, completionTokens: 2, totalTokens: 3 };
const stored = (id: string, query: string): WebMessage => ({
  id,
  conversation_id: C,
  query,
  answer: `re: ${query}`,
  files: [],
  status: 'succeeded',
  error: null,
  citations: [],
  feedback: null,
  usage,
  elapsed_ms: 1,
  created_at: '2025-01-01T00:00:00.000Z',
});

describe('chat state', () => {
  it('prepends older pages (sent newest first) and lowers the first index by their number', () => {
    let s = withOlder(emptyChat(C), { list: [stored('m3', 'c'), stored('m2', 'b')], has_more: true });
    expect(s.messages.map((m) => m.id)).toEqual(['m2', 'm3']);
    expect(s.firstItemIndex).toBe(FIRST_INDEX - 2);
    s = withOlder(s, { list: [stored('m2', 'b'), stored('m1', 'a')], has_more: false });
    expect(s.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
    expect(s.firstItemIndex).toBe(FIRST_INDEX - 3);
    expect(s.hasMore).toBe(false);
  });

  it('streams an answer into the sent message, which takes the stored ids at the end', () => {
    let s = withSent(emptyChat(), 'local-1', 'hi', []);
    expect(streamingMessage(s)?.id).toBe('local-1');
    s = withEvent(s, 'local-1', { type: 'run_created', runId: 'r1', conversationId: C });
    expect(s.conversationId).toBe(C);
    s = withEvent(s, 'local-1', { type: 'answer_chunk', runId: 'r1', seq: 1, at: 1, nodeId: 'a', text: 'Hel' });
    s = withEvent(s, 'local-1', { type: 'answer_chunk', runId: 'r1', seq: 2, at: 2, nodeId: 'a', text: 'lo' });
    expect(s.messages[0]).toMatchObject({ answer: 'Hello', runId: 'r1', status: 'streaming' });
    s = withEvent(s, 'local-1', { type: 'run_finished', runId: 'r1', seq: 3, at: 3, elapsedMs: 5, outputs: {}, answer: 'Hello', usage, steps: 2 });
    s = withEvent(s, 'local-1', { type: 'message_end', messageId: '33333333-3333-4333-8333-333333333333', conversationId: C, citations: [], usage });
    expect(s.messages[0]).toMatchObject({ id: '33333333-3333-4333-8333-333333333333', status: 'succeeded', local: false });
    expect(streamingMessage(s)).toBeUndefined();
  });

  it('a stopped run keeps what came; a broken stream fails the message; regenerating replaces it', () => {
    let s = withSent(emptyChat(C), 'l1', 'q', []);
    s = withEvent(s, 'l1', { type: 'answer_chunk', runId: 'r', seq: 0, at: 0, nodeId: 'a', text: 'part' });
    s = withStreamEnd(s, 'l1', null, true);
    expect(s.messages[0]).toMatchObject({ status: 'stopped', answer: 'part' });
    s = withRegenerating(s, 'l1', 'l2');
    expect(s.messages.map((m) => [m.id, m.query, m.answer, m.status])).toEqual([['l2', 'q', '', 'streaming']]);
    s = withStreamEnd(s, 'l2', { code: 'CLIENT-NETWORK', message: 'offline' });
    expect(s.messages[0]).toMatchObject({ status: 'failed', error: { code: 'CLIENT-NETWORK' } });
  });
});
