import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMemoryPortalApi, demoPortalApps } from '../memory-portal-api';
import { useChat } from './use-chat';

describe('useChat', () => {
  it('sends a first message, streams the answer, learns the new conversation, gets follow-ups', async () => {
    const apps = demoPortalApps(1);
    const api = createMemoryPortalApi({ apps, chunkDelayMs: 1 });
    const made: string[] = [];
    const { result, rerender } = renderHook(({ id }: { id: string | null }) => useChat({ api, appId: apps[0].id, conversationId: id, features: apps[0].features, onConversation: (c) => made.push(c) }), {
      initialProps: { id: null as string | null },
    });
    act(() => result.current.send('hello'));
    expect(result.current.busy).toBe(true);
    await waitFor(() => expect(made).toHaveLength(1));
    rerender({ id: made[0] });
    await waitFor(() => expect(result.current.busy).toBe(false), { timeout: 5000 });
    const [m] = result.current.chat.messages;
    expect(m.status).toBe('succeeded');
    expect(m.answer).toContain('You asked: *hello*');
    expect(m.local).toBe(false);
    expect(result.current.chat.conversationId).toBe(made[0]);
    await waitFor(() => expect(result.current.chat.messages[0].followUps).toHaveLength(2));
  });
});

describe('useChat stop and lost access', () => {
  it('stop asks the server to stop the run; the answer keeps what came and reads as stopped', async () => {
    const apps = demoPortalApps(1);
    const api = createMemoryPortalApi({ apps, chunkDelayMs: 30 });
    const { result } = renderHook(() => useChat({ api, appId: apps[0].id, conversationId: null, features: apps[0].features }));
    act(() => result.current.send('hello'));
    await waitFor(() => expect(result.current.chat.messages[0].answer.length).toBeGreaterThan(0));
    act(() => result.current.stop());
    await waitFor(() => expect(result.current.busy).toBe(false));
    expect(api.calls.find((c) => c.method === 'stop')?.args).toEqual([apps[0].id, result.current.chat.messages[0].runId]);
    expect(result.current.chat.messages[0].status).toBe('stopped');
    expect(result.current.chat.messages[0].answer.length).toBeLessThan(40);
  });

  it('a send the server refuses (access lost) fails the message and tells the page', async () => {
    const apps = demoPortalApps(1);
    const api = createMemoryPortalApi({ apps, lostAccess: [apps[0].id] });
    let lost = 0;
    const { result } = renderHook(() => useChat({ api, appId: apps[0].id, conversationId: null, features: apps[0].features, onAccessLost: () => lost++ }));
    act(() => result.current.send('hello'));
    await waitFor(() => expect(result.current.chat.messages[0].status).toBe('failed'));
    expect(lost).toBe(1);
    expect(result.current.chat.messages[0].error?.code).toBe('VALIDATION-1000');
  });
});

describe('useChat reconnecting', () => {
  it('marks the streaming answer as reconnecting while its dropped stream is resumed, then goes on', async () => {
    const apps = demoPortalApps(1);
    let resumed!: () => void;
    const gate = new Promise<void>((r) => (resumed = r));
    const base = { runId: 'r1', seq: 1, at: 1, nodeId: 'ans' };
    const api = {
      ...createMemoryPortalApi({ apps }),
      async *chat(_appId: string, _body: unknown, _signal: AbortSignal, onReconnecting?: (on: boolean) => void) {
        yield { type: 'run_created', runId: 'r1', conversationId: 'c1', messageId: 'm1' } as never;
        yield { type: 'answer_chunk', ...base, text: 'Hel' } as never;
        // The client lost the connection and is resuming it (src/api/resume-stream.ts).
        onReconnecting?.(true);
        await gate;
        onReconnecting?.(false);
        yield { type: 'answer_chunk', ...base, seq: 2, text: 'lo' } as never;
        yield { type: 'message_end', messageId: 'm1', conversationId: 'c1', citations: [], usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } } as never;
      },
    };
    const { result } = renderHook(() => useChat({ api, appId: apps[0].id, conversationId: null, features: apps[0].features }));
    act(() => result.current.send('hello'));
    await waitFor(() => expect(result.current.chat.messages[0].reconnecting).toBe(true));
    expect(result.current.chat.messages[0]).toMatchObject({ status: 'streaming', answer: 'Hel' });
    act(() => resumed());
    await waitFor(() => expect(result.current.busy).toBe(false));
    expect(result.current.chat.messages[0]).toMatchObject({ id: 'm1', status: 'succeeded', answer: 'Hello' });
    expect(result.current.chat.messages[0].reconnecting).toBeUndefined();
  });
});
