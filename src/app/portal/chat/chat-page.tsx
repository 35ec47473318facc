/**
 * /portal/sessions/chat/:appId[?conversation=id]: the chat with a distributed app inside the portal
 * (chat-view.tsx). The conversation lives in the URL, so a link or a reload opens it again.
 */
import { useCallback } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { ChatView } from './chat-view';

/** The conversation of the URL, and a way to change it. */
export function useConversationParam() {
  const [params, setParams] = useSearchParams();
  const conversationId = params.get('conversation');
  const change = useCallback(
    (id: string | null, replace = false) =>
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          if (id) next.set('conversation', id);
          else next.delete('conversation');
          return next;
        },
        { replace },
      ),
    [setParams],
  );
  return [conversationId, change] as const;
}

export default function ChatPage() {
  const { appId = '' } = useParams();
  const [conversationId, setConversation] = useConversationParam();
  return <ChatView key={appId} appId={appId} conversationId={conversationId} onConversationChange={setConversation} />;
}
