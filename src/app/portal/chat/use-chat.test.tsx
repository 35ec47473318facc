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
