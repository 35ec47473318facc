/** The portal's paths (spec 2 "Portal"), and where opening an app goes. */
import type { FlowMode } from '../../../schemas/flow';

export const portalPaths = {
  discover: '/portal/sessions/discover',
  sessions: '/portal/sessions/sessions-page',
  singleAgent: '/portal/single-agent/single-agent-chat',
  gbiAsk: '/portal/gbi',
  gbiSettings: '/portal/gbi-data-settings/gbi-data-settings-page',
  /** A GBI source's tables, optionally on one of them (its columns and first rows). */
  gbiTable: (sourceId: string, tableId?: string) =>
    `/portal/gbi/table-display?source=${encodeURIComponent(sourceId)}${tableId ? `&table=${encodeURIComponent(tableId)}` : ''}`,
  /** The chat of an app, optionally on one of its conversations. */
  chat: (appId: string, conversationId?: string) =>
    `/portal/sessions/chat/${encodeURIComponent(appId)}${conversationId ? `?conversation=${encodeURIComponent(conversationId)}` : ''}`,
  workflow: (appId: string) => `/portal/sessions/workflow/${encodeURIComponent(appId)}`,
  /** The chat without the portal's chrome (for an iframe). */
  embed: (appId: string) => `/portal/chat/${encodeURIComponent(appId)}`,
};

/** Workflows open their run page; the chat modes (agent, chatflow, agent team) their chat. */
export const isChatMode = (mode: FlowMode) => mode !== 'workflow';

/** Where opening an app in the portal goes. */
export const appPath = (app: { id: string; mode: FlowMode }) => (isChatMode(app.mode) ? portalPaths.chat(app.id) : portalPaths.workflow(app.id));
