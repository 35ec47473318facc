/**
 * A conversation as the chat shows it, and how it changes: history pages prepended as the user
 * scrolls up, a message sent and its answer streamed in, regenerated, rated, given follow-ups.
 * Pure functions over plain data (use-chat.ts holds the state; tests call them directly).
 */
import type { FeedbackRating, WebMessage, WebMessagePage } from '../../../../schemas/portal';
import type { RunFileRef } from '../../../../schemas/run-api';
import type { PortalStreamEvent } from '../../../api/portal-stream';

export interface ChatMessage extends Omit<WebMessage, 'status'> {
  /** `streaming` while the answer comes in (a stored message still running reads the same). */
  status: WebMessage['status'] | 'streaming';
  /** The run behind a streaming answer (to stop it). */
  runId?: string;
  /** Follow-up questions offered after this answer. */
  followUps?: string[];
  /** Sent, not yet stored: the id is the client's until `message_end`. */
  local?: boolean;
  /** A key that stays when the client's id becomes the stored one (the list keeps the element). */
  key?: string;
  /** The answer's connection dropped and is being resumed (the rest follows, nothing repeated). */
  reconnecting?: boolean;
}

/** The list key of a message. */
export const keyOf = (m: ChatMessage) => m.key ?? m.id;

export interface ChatState {
  conversationId: string | null;
  /** Oldest first. */
  messages: ChatMessage[];
  /** Older messages exist above the first one. */
  hasMore: boolean;
  /** The index of the first message for the list (react-virtuoso): lowered as older pages come. */
  firstItemIndex: number;
}

/** Where the list's indexes start: room for this many older messages above. */
export const FIRST_INDEX = 1_000_000;

export const emptyChat = (conversationId: string | null = null): ChatState => ({ conversationId, messages: [], hasMore: false, firstItemIndex: FIRST_INDEX });

const fromStored = (m: WebMessage): ChatMessage => ({ ...m, status: m.status === 'running' ? 'streaming' : m.status });

/** A page of history (newest first, as the server sends it) above what is shown. */
export function withOlder(state: ChatState, page: WebMessagePage): ChatState {
  const known = new Set(state.messages.map((m) => m.id));
  const older = page.list.filter((m) => !known.has(m.id)).reverse().map(fromStored);
  return { ...state, messages: [...older, ...state.messages], hasMore: page.has_more, firstItemIndex: state.firstItemIndex - older.length };
}

/** The message a user sends, shown at once while its answer streams in. */
export function withSent(state: ChatState, localId: string, query: string, files: RunFileRef[], now = new Date()): ChatState {
  const message: ChatMessage = {
    id: localId,
    conversation_id: state.conversationId ?? '',
    query,
    answer: '',
    files,
    status: 'streaming',
    error: null,
    citations: [],
    feedback: null,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    elapsed_ms: 0,
    created_at: now.toISOString(),
    local: true,
    key: localId,
  };
  // Follow-ups belong to the last answer only.
  const messages = state.messages.map((m) => (m.followUps ? { ...m, followUps: undefined } : m));
  return { ...state, messages: [...messages, message] };
}

/** Regenerating answers the message's question again: it is replaced by a new one, streaming. */
export function withRegenerating(state: ChatState, messageId: string, localId: string): ChatState {
  const old = state.messages.find((m) => m.id === messageId);
  if (!old) return state;
  const rest = { ...state, messages: state.messages.filter((m) => m.id !== messageId) };
  return withSent(rest, localId, old.query, old.files);
}

function update(state: ChatState, id: string, change: (m: ChatMessage) => Partial<ChatMessage>): ChatState {
  return { ...state, messages: state.messages.map((m) => (m.id === id ? { ...m, ...change(m) } : m)) };
}

/** One event of the answer's stream, applied to the message `id` (the client's until the end). */
export function withEvent(state: ChatState, id: string, e: PortalStreamEvent): ChatState {
  switch (e.type) {
    case 'run_created': {
      const next = update(state, id, () => ({ runId: e.runId, ...(e.conversationId ? { conversation_id: e.conversationId } : {}) }));
      return e.conversationId ? { ...next, conversationId: e.conversationId } : next;
    }
    case 'answer_chunk':
      return update(state, id, (m) => ({ answer: m.answer + e.text }));
    case 'run_finished':
      // An answer that came whole (no streaming node) arrives here only.
      return update(state, id, (m) => ({ status: 'succeeded', answer: m.answer || e.answer, usage: e.usage, elapsed_ms: e.elapsedMs }));
    case 'run_failed':
      return update(state, id, (m) => ({ status: e.status, error: e.error, answer: m.answer || e.answer, usage: e.usage, elapsed_ms: e.elapsedMs }));
    case 'message_end': {
      const next = update(state, id, (m) => ({
        id: e.messageId,
        conversation_id: e.conversationId,
        citations: e.citations,
        usage: e.usage,
        status: m.status === 'streaming' ? 'succeeded' : m.status,
        local: false,
      }));
      return { ...next, conversationId: e.conversationId };
    }
    default:
      return state;
  }
}

/** The stream ended or broke without a last word: a message still streaming failed (or was stopped). */
export function withStreamEnd(state: ChatState, id: string, error: { code: string; message: string } | null, stopped = false): ChatState {
  return update(state, id, (m) =>
    m.status !== 'streaming'
      ? { reconnecting: undefined }
      : stopped
        ? { status: 'stopped', reconnecting: undefined }
        : { status: 'failed', reconnecting: undefined, error: error ?? { code: 'CLIENT-STREAM', message: '' } },
  );
}

/** The answer's stream is reconnecting (true) or flowing again (false). */
export const withReconnecting = (state: ChatState, id: string, reconnecting: boolean) => update(state, id, () => ({ reconnecting: reconnecting || undefined }));

export const withFeedback = (state: ChatState, id: string, feedback: FeedbackRating | null) => update(state, id, () => ({ feedback }));

export const withFollowUps = (state: ChatState, id: string, followUps: string[]) => update(state, id, () => ({ followUps }));

/** The message whose answer is streaming, if any. */
export const streamingMessage = (state: ChatState) => state.messages.find((m) => m.status === 'streaming');
