/**
 * What the portal's screens need from the server, behind a context so that stories and tests can
 * give a scripted implementation (./memory-portal-api.ts). The default is the real WEB API
 * (src/api/portal.ts). Reads are silent (the screens show their own error states and the lost-access
 * page); writes go through the usual reactions (a failed save shows its message).
 */
import { createContext, useContext } from 'react';
import type {
  ConversationGroup,
  FeedbackRating,
  PortalApp,
  PortalAppDetail,
  PortalListQuery,
  UsageRecord,
  WebChatBody,
  WebConversation,
  WebConversationQuery,
  WebConversationUpdateBody,
  WebMessagePage,
  WebRun,
  WebWorkflowBody,
} from '../../../schemas/portal';
import type { UploadedFile } from '../../../schemas/knowledge';
import * as web from '../../api/portal';
import type { PortalStreamEvent } from '../../api/portal-stream';

export interface WebPage<T> {
  list: T[];
  total: number;
  page: number;
  page_size: number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface PortalApi {
  listApps(q: Partial<PortalListQuery>, opts?: CallOptions): Promise<WebPage<PortalApp>>;
  getApp(appId: string, opts?: CallOptions): Promise<PortalAppDetail>;
  /** `onReconnecting` hears when a dropped stream is being resumed (true) and flows again (false). */
  chat(appId: string, body: WebChatBody, signal: AbortSignal, onReconnecting?: (reconnecting: boolean) => void): AsyncIterable<PortalStreamEvent>;
  workflow(appId: string, body: WebWorkflowBody, signal: AbortSignal): AsyncIterable<PortalStreamEvent>;
  stop(appId: string, runId: string): Promise<unknown>;
  listRuns(appId: string, q: { page?: number; page_size?: number }, opts?: CallOptions): Promise<WebPage<WebRun>>;
  getRun(appId: string, runId: string, opts?: CallOptions): Promise<WebRun>;
  listConversations(q: Partial<WebConversationQuery>, opts?: CallOptions): Promise<WebPage<WebConversation>>;
  getConversation(conversationId: string, opts?: CallOptions): Promise<WebConversation>;
  updateConversation(conversationId: string, body: WebConversationUpdateBody): Promise<WebConversation>;
  deleteConversation(conversationId: string): Promise<unknown>;
  listMessages(conversationId: string, q: { before_id?: string; limit?: number }, opts?: CallOptions): Promise<WebMessagePage>;
  feedback(messageId: string, rating: FeedbackRating | null): Promise<unknown>;
  suggested(messageId: string, opts?: CallOptions): Promise<string[]>;
  listGroups(opts?: CallOptions): Promise<ConversationGroup[]>;
  createGroup(name: string): Promise<ConversationGroup>;
  renameGroup(groupId: string, name: string): Promise<ConversationGroup>;
  deleteGroup(groupId: string): Promise<unknown>;
  listUsage(q: { page?: number; page_size?: number }, opts?: CallOptions): Promise<WebPage<UsageRecord>>;
  upload(file: File, opts: { signal: AbortSignal }): Promise<UploadedFile>;
}

const silent = (opts?: CallOptions) => ({ ...opts, reaction: 'silent' as const });

/** The real WEB API. */
export const realPortalApi: PortalApi = {
  listApps: (q, opts) => web.listPortalApps(q, silent(opts)),
  getApp: (id, opts) => web.getPortalApp(id, silent(opts)),
  // Errors before the stream starts are shown in the conversation itself.
  chat: (id, body, signal, onReconnecting) => web.streamPortalChat(id, body, { signal, reaction: 'silent', onReconnecting }),
  workflow: (id, body, signal) => web.streamPortalWorkflow(id, body, { signal, reaction: 'silent' }),
  stop: (id, runId) => web.stopPortalRun(id, runId, { reaction: 'silent' }),
  listRuns: (id, q, opts) => web.listPortalRuns(id, q, silent(opts)),
  getRun: (id, runId, opts) => web.getPortalRun(id, runId, silent(opts)),
  listConversations: (q, opts) => web.listWebConversations(q, silent(opts)),
  getConversation: (id, opts) => web.getWebConversation(id, silent(opts)),
  updateConversation: (id, body) => web.updateWebConversation(id, body),
  deleteConversation: (id) => web.deleteWebConversation(id),
  listMessages: (id, q, opts) => web.listWebMessages(id, q, silent(opts)),
  feedback: (id, rating) => web.setMessageFeedback(id, rating),
  suggested: (id, opts) => web.suggestedQuestions(id, silent(opts)),
  listGroups: (opts) => web.listConversationGroups(silent(opts)),
  createGroup: (name) => web.createConversationGroup(name),
  renameGroup: (id, name) => web.renameConversationGroup(id, name),
  deleteGroup: (id) => web.deleteConversationGroup(id),
  listUsage: (q, opts) => web.listUsageRecords(q, silent(opts)),
  // The upload call and its schema load with the first attachment.
  upload: async (file, { signal }) => (await import('../../api/portal-files')).uploadPortalFile(file, { signal }),
};

/** Stories and tests put a scripted {@link PortalApi} here. */
export const PortalApiContext = createContext<PortalApi>(realPortalApi);
export const usePortalApi = () => useContext(PortalApiContext);
