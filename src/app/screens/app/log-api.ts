/**
 * What the log tab needs from the server, behind a context so stories and tests can pass an in-memory
 * implementation (memory-log-api.ts). The default is the real API (src/api/runs.ts).
 */
import { createContext, useContext } from 'react';
import type { RunStatus } from '../../../../schemas/run';
import type { ConversationMessage, ConversationSummary, LogPeriod, RunDetail, RunSource, RunSummary } from '../../../../schemas/run-api';
import { deleteConversation, getRun, listConversations, listMessages, listRuns } from '../../../api/runs';
import type { PagedAnswer } from '../../../kit/schema-table';

export interface RunLogQuery {
  period: LogPeriod;
  keyword?: string;
  status?: RunStatus | '';
  /** Only the runs of this source (debug, portal, API…). */
  source?: RunSource | '';
  page: number;
  page_size: number;
}

export interface LogApi {
  listRuns(appId: string, workspaceId: string, q: RunLogQuery): Promise<PagedAnswer<RunSummary>>;
  getRun(appId: string, workspaceId: string, runId: string): Promise<RunDetail>;
  listConversations(appId: string, workspaceId: string, q: { period: LogPeriod; page: number; page_size: number }): Promise<PagedAnswer<ConversationSummary>>;
  listMessages(appId: string, workspaceId: string, conversationId: string): Promise<ConversationMessage[]>;
  deleteConversation(appId: string, workspaceId: string, conversationId: string): Promise<unknown>;
}

const items = <T,>(p: { list: T[]; total: number }): PagedAnswer<T> => ({ items: p.list, total: p.total });

export const apiLogApi: LogApi = {
  listRuns: (appId, workspaceId, q) => listRuns(appId, { ...q, keyword: q.keyword || undefined, status: q.status || undefined, source: q.source || undefined }, { workspaceId }).then(items),
  getRun: (appId, workspaceId, runId) => getRun(appId, runId, { workspaceId }),
  listConversations: (appId, workspaceId, q) => listConversations(appId, q, { workspaceId }).then(items),
  // A conversation's whole history in one page (the server's page maximum).
  listMessages: (appId, workspaceId, id) => listMessages(appId, id, { page: 1, page_size: 1000 }, { workspaceId }).then((p) => p.list),
  deleteConversation: (appId, workspaceId, id) => deleteConversation(appId, id, { workspaceId }),
};

export const LogApiContext = createContext<LogApi>(apiLogApi);
export const useLogApi = () => useContext(LogApiContext);
