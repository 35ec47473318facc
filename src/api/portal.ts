/**
 * WEB (portal) group, spec 7.6: what the signed-in end user may use, chatting with and running
 * distributed apps, their conversations (groups, pins, personas), feedback, workflow runs and usage
 * records. Paths as schemas/portal.ts lists them, under /api/v1/web; no X-Workspace-Id is sent (the
 * portal is the user's, across project spaces). Runs stream as SSE: see ./portal-stream.ts; uploads
 * are in ./portal-files.ts (they load with the first attachment).
 */
import type { z } from 'zod';
import type {
  FeedbackRating,
  PortalListQuery,
  UsageRecordQuery,
  WebChatBody,
  WebConversationQuery,
  WebConversationUpdateBody,
  WebWorkflowBody,
} from '../../schemas/portal';
import type { PortalStreamEvent } from './portal-stream';
import { call, request, type Endpoint, type RequestOptions } from './request';

type Answers = (typeof import('./portal-schemas'))['portalAnswers'];
/** The schema of an answer, loaded with the first call (zod is not in the portal's first load). */
const answer =
  <K extends keyof Answers>(key: K) =>
  async (): Promise<Answers[K]> =>
    (await import('./portal-schemas')).portalAnswers[key];

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

export type { PortalStreamEvent };

const base = '/api/v1/web';
const app = `${base}/portal/:portal_id`;
export const portalEndpoints = {
  apps: { method: 'GET', url: `${base}/portal`, name: 'portal.apps' },
  app: { method: 'GET', url: app, name: 'portal.app' },
  chat: { method: 'POST', url: `${app}/chat-messages`, name: 'portal.chat' },
  workflow: { method: 'POST', url: `${app}/workflow-runs`, name: 'portal.workflow' },
  stop: { method: 'POST', url: `${app}/runs/:run_id/stop`, name: 'portal.stop' },
  runs: { method: 'GET', url: `${app}/runs`, name: 'portal.runs' },
  events: { method: 'GET', url: `${app}/runs/:run_id/events`, name: 'portal.events' },
  run: { method: 'GET', url: `${app}/runs/:run_id`, name: 'portal.run' },
  conversations: { method: 'GET', url: `${base}/conversations`, name: 'portal.conversations' },
  conversation: { method: 'GET', url: `${base}/conversations/:conversation_id`, name: 'portal.conversation' },
  updateConversation: { method: 'PUT', url: `${base}/conversations/:conversation_id`, name: 'portal.updateConversation' },
  deleteConversation: { method: 'DELETE', url: `${base}/conversations/:conversation_id`, name: 'portal.deleteConversation' },
  messages: { method: 'GET', url: `${base}/conversations/:conversation_id/messages`, name: 'portal.messages' },
  feedback: { method: 'PUT', url: `${base}/messages/:message_id/feedback`, name: 'portal.feedback' },
  suggested: { method: 'GET', url: `${base}/messages/:message_id/suggested`, name: 'portal.suggested' },
  groups: { method: 'GET', url: `${base}/groups`, name: 'portal.groups' },
  createGroup: { method: 'POST', url: `${base}/groups`, name: 'portal.createGroup' },
  updateGroup: { method: 'PUT', url: `${base}/groups/:group_id`, name: 'portal.updateGroup' },
  deleteGroup: { method: 'DELETE', url: `${base}/groups/:group_id`, name: 'portal.deleteGroup' },
  usage: { method: 'GET', url: `${base}/usage-records`, name: 'portal.usage' },
  upload: { method: 'POST', url: `${base}/files/upload`, name: 'portal.upload' },
} as const satisfies Record<string, Endpoint>;

/** The apps this user may use (discover), by name/description and mode; 100 a page by default. */
export const listPortalApps = (q: Partial<PortalListQuery> = {}, opts?: Opts) =>
  call(answer('apps'), portalEndpoints.apps, { page: 1, page_size: 100, ...q }, { workspaceId: null, ...opts });

/** One app with what its chat or run page needs (features, start inputs, conversation variables). */
export const getPortalApp = (portal_id: string, opts?: Opts) => call(answer('app'), portalEndpoints.app, { portal_id }, { workspaceId: null, ...opts });

/** Options of a portal stream: `onReconnecting` hears when a dropped connection is being resumed (true) and when events flow again (false). */
export type StreamOpts = Opts & { onReconnecting?: (reconnecting: boolean) => void };

async function* stream(endpoint: Endpoint, portal_id: string, body: object, opts: StreamOpts, chat: boolean): AsyncGenerator<PortalStreamEvent> {
  const { onReconnecting, ...rest } = opts;
  const sse = { workspaceId: null, ...rest, responseType: 'stream' as const, headers: { Accept: 'text/event-stream', ...rest.headers } };
  const res = await request(endpoint, { portal_id, ...body }, sse);
  // The stream's reader and its event schemas load with the first run, not with the portal.
  const { resumablePortalEvents } = await import('./portal-stream');
  // A dropped connection is picked up again after the last frame received, on any server process.
  const resume = (run_id: string, last: number) => request(portalEndpoints.events, { portal_id, run_id }, { ...sse, headers: { ...sse.headers, 'Last-Event-ID': String(last) } });
  yield* resumablePortalEvents(res, resume, { chat, signal: opts.signal, onReconnecting });
}

/**
 * Sends a message to a chat app (a new conversation without `conversation_id`) and yields the run's
 * events, then `message_end` once the answer is stored; a connection that drops mid-answer is
 * resumed where it stopped. Aborting `opts.signal` closes the stream; {@link stopPortalRun} stops the run itself.
 */
export const streamPortalChat = (portal_id: string, body: WebChatBody, opts: StreamOpts = {}) => stream(portalEndpoints.chat, portal_id, body, opts, true);

/** Runs a workflow app with the form's values; yields the run's events (resumed after a drop too). */
export const streamPortalWorkflow = (portal_id: string, body: WebWorkflowBody, opts: StreamOpts = {}) => stream(portalEndpoints.workflow, portal_id, body, opts, false);

/** Stops one of the user's own runs (its stream then ends with `run_failed`, status `stopped`). */
export const stopPortalRun = (portal_id: string, run_id: string, opts?: Opts) =>
  call(answer('stop'), portalEndpoints.stop, { portal_id, run_id }, { workspaceId: null, ...opts });

/** The user's runs of a workflow app, newest first. */
export const listPortalRuns = (portal_id: string, q: { page?: number; page_size?: number } = {}, opts?: Opts) =>
  call(answer('runs'), portalEndpoints.runs, { portal_id, page: 1, page_size: 20, ...q }, { workspaceId: null, ...opts });

export const getPortalRun = (portal_id: string, run_id: string, opts?: Opts) => call(answer('run'), portalEndpoints.run, { portal_id, run_id }, { workspaceId: null, ...opts });

/** The user's conversations, pinned first then newest; by app, group or keyword. */
export const listWebConversations = (q: Partial<WebConversationQuery> = {}, opts?: Opts) =>
  call(answer('conversations'), portalEndpoints.conversations, { page: 1, page_size: 50, ...q }, { workspaceId: null, ...opts });

export const getWebConversation = (conversation_id: string, opts?: Opts) =>
  call(answer('conversation'), portalEndpoints.conversation, { conversation_id }, { workspaceId: null, ...opts });

/** Renames, pins, moves into or out of a group (`group_id: null`), or sets the character. */
export const updateWebConversation = (conversation_id: string, body: WebConversationUpdateBody, opts?: Opts) =>
  call(answer('conversation'), portalEndpoints.updateConversation, { conversation_id, ...body }, { workspaceId: null, ...opts });

export const deleteWebConversation = (conversation_id: string, opts?: Opts) =>
  call(answer('none'), portalEndpoints.deleteConversation, { conversation_id }, { workspaceId: null, ...opts });

/** A page of a conversation's messages, newest first; `before_id` pages up (older). */
export const listWebMessages = (conversation_id: string, q: { before_id?: string; limit?: number } = {}, opts?: Opts) =>
  call(answer('messages'), portalEndpoints.messages, { conversation_id, ...q }, { workspaceId: null, ...opts });

/** Likes or dislikes an answer; null takes the rating back. */
export const setMessageFeedback = (message_id: string, rating: FeedbackRating | null, opts?: Opts) =>
  call(answer('none'), portalEndpoints.feedback, { message_id, rating }, { workspaceId: null, ...opts });

/** Up to three follow-up questions for an answer. */
export const suggestedQuestions = (message_id: string, opts?: Opts) =>
  call(answer('suggested'), portalEndpoints.suggested, { message_id }, { workspaceId: null, ...opts }).then((r) => r.questions);

/** The user's conversation groups. */
export const listConversationGroups = (opts?: Opts) => call(answer('groups'), portalEndpoints.groups, undefined, { workspaceId: null, ...opts });

export const createConversationGroup = (name: string, opts?: Opts) =>
  call(answer('group'), portalEndpoints.createGroup, { name }, { workspaceId: null, ...opts });

export const renameConversationGroup = (group_id: string, name: string, opts?: Opts) =>
  call(answer('group'), portalEndpoints.updateGroup, { group_id, name }, { workspaceId: null, ...opts });

/** Deletes a group; its conversations stay, outside any group. */
export const deleteConversationGroup = (group_id: string, opts?: Opts) =>
  call(answer('none'), portalEndpoints.deleteGroup, { group_id }, { workspaceId: null, ...opts });

/** The user's usage records, newest first, 10 a page (spec 9). */
export const listUsageRecords = (q: Partial<z.input<typeof UsageRecordQuery>> = {}, opts?: Opts) =>
  call(answer('usage'), portalEndpoints.usage, { page: 1, page_size: 10, ...q }, { workspaceId: null, ...opts });
