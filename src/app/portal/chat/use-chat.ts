/**
 * One conversation of the chat: its history (paged up by `before_id`), sending a message and reading
 * its answer's stream, stop, regenerate, feedback and follow-up questions. The state changes are the
 * pure functions of ./chat-state.ts; this hook runs the calls.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AppFeatures } from '../../../../schemas/flow';
import type { FeedbackRating, WebChatBody } from '../../../../schemas/portal';
import type { RunFileRef } from '../../../../schemas/run-api';
import { describeError } from '../../../api/reactions';
import { isApiError } from '../../../api/request';
import { isAccessLost, settleLoadError } from '../load-error';
import type { PortalApi } from '../portal-api';
import {
  emptyChat,
  streamingMessage,
  withEvent,
  withFeedback,
  withFollowUps,
  withOlder,
  withReconnecting,
  withRegenerating,
  withSent,
  withStreamEnd,
  type ChatState,
} from './chat-state';

export const HISTORY_PAGE = 20;
/** After asking the server to stop, how long the stream may take to end before it is cut. */
const STOP_GRACE_MS = 5000;

export interface UseChatOptions {
  api: PortalApi;
  appId: string;
  /** The conversation to show (the URL's); null: a new one. */
  conversationId: string | null;
  features: AppFeatures | null;
  /** The start form's values, sent with a new conversation's first message. */
  inputs?: Record<string, unknown>;
  /** The first message made a conversation (the page puts it in the URL and the side list). */
  onConversation?: (id: string) => void;
  /** An answer was stored (the side list refreshes its order and names). */
  onAnswered?: () => void;
  /** The server refused the app (distribution cancelled, space left): the page turns read-only. */
  onAccessLost?: () => void;
}

let localSeq = 0;
const localId = () => `local-${++localSeq}`;

export function useChat({ api, appId, conversationId, features, inputs, onConversation, onAnswered, onAccessLost }: UseChatOptions) {
  const [chat, setChat] = useState<ChatState>(() => emptyChat(conversationId));
  const [status, setStatus] = useState<'ready' | 'loading' | 'error'>(conversationId ? 'loading' : 'ready');
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [stopping, setStopping] = useState(false);
  const [nonce, setNonce] = useState(0);
  const current = useRef(chat);
  current.current = chat;
  const stream = useRef<{ ctrl: AbortController; stopped: boolean } | null>(null);
  const latest = useRef({ onConversation, onAnswered, onAccessLost, features, inputs });
  latest.current = { onConversation, onAnswered, onAccessLost, features, inputs };

  // A conversation opened from the URL or the side list: its newest page. One the chat itself just
  // made (its first message's answer is streaming or done) is already here.
  useEffect(() => {
    if (conversationId !== null && conversationId === current.current.conversationId && current.current.messages.length > 0) return;
    stream.current?.ctrl.abort();
    const fresh = emptyChat(conversationId);
    setChat(fresh);
    current.current = fresh;
    if (!conversationId) {
      setStatus('ready');
      return;
    }
    const ctrl = new AbortController();
    setStatus('loading');
    api.listMessages(conversationId, { limit: HISTORY_PAGE }, { signal: ctrl.signal }).then(
      (page) => {
        setChat((s) => withOlder(s, page));
        setStatus('ready');
      },
      (e: unknown) => {
        if (!settleLoadError(e)) setStatus('error');
      },
    );
    return () => ctrl.abort();
  }, [api, conversationId, nonce]);

  const loadOlder = useCallback(() => {
    const s = current.current;
    if (!s.conversationId || !s.hasMore || loadingOlder || s.messages.length === 0) return;
    setLoadingOlder(true);
    api.listMessages(s.conversationId, { before_id: s.messages[0].id, limit: HISTORY_PAGE }).then(
      (page) => {
        setChat((cur) => (cur.conversationId === s.conversationId ? withOlder(cur, page) : cur));
        setLoadingOlder(false);
      },
      (e: unknown) => {
        settleLoadError(e);
        setLoadingOlder(false);
      },
    );
  }, [api, loadingOlder]);

  /** Reads an answer's stream into the message `id`. */
  const run = useCallback(
    async (id: string, body: WebChatBody) => {
      const ctrl = new AbortController();
      const mine = { ctrl, stopped: false };
      stream.current = mine;
      let target = id;
      let stored: string | null = null;
      // A dropped connection is resumed by the client (src/api/resume-stream.ts): the message says so meanwhile.
      const onReconnecting = (on: boolean) => {
        const at = target;
        setChat((s) => withReconnecting(s, at, on));
      };
      try {
        for await (const e of api.chat(appId, body, ctrl.signal, onReconnecting)) {
          const hadConversation = current.current.conversationId;
          // The updater runs later: it must see the id the message has now, not the one it gets below.
          const at = target;
          setChat((s) => withEvent(s, at, e));
          current.current = withEvent(current.current, at, e);
          if ((e.type === 'run_created' || e.type === 'message_end') && e.conversationId && !hadConversation) latest.current.onConversation?.(e.conversationId);
          if (e.type === 'message_end') {
            target = e.messageId;
            stored = e.messageId;
          }
        }
        const end = target;
        setChat((s) => withStreamEnd(s, end, null, mine.stopped));
      } catch (e) {
        if (isAccessLost(e)) latest.current.onAccessLost?.();
        else settleLoadError(e);
        const message = isApiError(e) ? (describeError(e)?.text ?? e.msg) : e instanceof Error ? e.message : String(e);
        const code = isApiError(e) ? e.code : 'CLIENT-STREAM';
        const end = target;
        setChat((s) => withStreamEnd(s, end, { code, message }, mine.stopped || ctrl.signal.aborted));
      } finally {
        if (stream.current === mine) stream.current = null;
        setStopping(false);
      }
      if (stored) {
        latest.current.onAnswered?.();
        if (latest.current.features?.suggested_questions_after_answer) {
          api.suggested(stored).then(
            (questions) => setChat((s) => withFollowUps(s, stored!, questions.slice(0, 3))),
            () => {
              // Follow-ups are a nicety: none when they cannot be had.
            },
          );
        }
      }
    },
    [api, appId],
  );

  const send = useCallback(
    (query: string, files: RunFileRef[] = []) => {
      const s = current.current;
      if (streamingMessage(s)) return;
      const id = localId();
      const next = withSent(s, id, query, files);
      setChat(next);
      current.current = next;
      const first = !s.conversationId;
      const inputs = latest.current.inputs;
      void run(id, {
        query,
        ...(s.conversationId ? { conversation_id: s.conversationId } : {}),
        ...(first && inputs && Object.keys(inputs).length ? { inputs } : {}),
        ...(files.length ? { files } : {}),
      });
    },
    [run],
  );

  const regenerate = useCallback(
    (messageId: string) => {
      const s = current.current;
      const old = s.messages.find((m) => m.id === messageId);
      if (!old || streamingMessage(s) || !s.conversationId) return;
      const id = localId();
      const next = withRegenerating(s, messageId, id);
      setChat(next);
      current.current = next;
      void run(id, { query: old.query, conversation_id: s.conversationId, regenerate_message_id: messageId, ...(old.files.length ? { files: old.files } : {}) });
    },
    [run],
  );

  const stop = useCallback(() => {
    const live = stream.current;
    if (!live) return;
    live.stopped = true;
    setStopping(true);
    const runId = streamingMessage(current.current)?.runId;
    if (!runId) return live.ctrl.abort();
    // The server ends the stream with the stopped run; cut it if it does not come.
    api.stop(appId, runId).catch(() => live.ctrl.abort());
    setTimeout(() => live.ctrl.abort(), STOP_GRACE_MS);
  }, [api, appId]);

  const feedback = useCallback(
    (messageId: string, rating: FeedbackRating | null) => {
      const before = current.current.messages.find((m) => m.id === messageId)?.feedback ?? null;
      setChat((s) => withFeedback(s, messageId, rating));
      api.feedback(messageId, rating).catch(() => setChat((s) => withFeedback(s, messageId, before)));
    },
    [api],
  );

  // Leaving the conversation (or the page) cuts its stream; the run goes on and is stored.
  useEffect(() => () => stream.current?.ctrl.abort(), []);

  return {
    chat,
    status,
    loadingOlder,
    busy: Boolean(streamingMessage(chat)),
    stopping,
    send,
    stop,
    regenerate,
    feedback,
    loadOlder,
    retry: () => setNonce((n) => n + 1),
  };
}
