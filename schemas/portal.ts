import { z } from 'zod';
import { Id, Timestamp } from './common';
import { AppIcon } from './app';
import { PortalCharacter } from './digital-human';
import { AppFeatures, FlowMode } from './flow';
import { pageNumber, pageSize } from './guards';
import { RunError, RunStatus, TokenUsage } from './run';
import { RunFileRef, RunSource } from './run-api';

/**
 * The portal's calls (spec 7.6 "WEB"), under /api/v1/web: what an end user may use, chatting with and
 * running distributed apps, their conversations (groups, pins, personas), feedback and usage records.
 *
 * Who may use an app: a user of the app's tenant when the app is distributed to `portal`, or a member
 * of the app's project space when it is distributed to `current_project`; the app must be active.
 * Runs use the DISTRIBUTED version (when both platforms apply, the `portal` distribution's version).
 * Anything else (another tenant, not distributed to this user, a conversation or message of another
 * user) answers VALIDATION-1000, as id pages read it (spec 6); nothing tells them apart.
 * A user who lost access keeps reading their past conversations (`accessible: false`), but cannot send.
 *
 * The `portal_id` of every path is the app's id (the portal lists one entry per app).
 *
 * Paths (all under /api/v1/web; `X-Workspace-Id` is not used):
 * - GET  /portal, GET /portal/{portal_id}: the apps this user may use, one with what its page needs
 * - POST /portal/{portal_id}/chat-messages, POST /portal/{portal_id}/workflow-runs: runs (SSE)
 * - POST /portal/{portal_id}/runs/{run_id}/stop: stop one of the user's own runs
 * - GET  /portal/{portal_id}/runs, GET /portal/{portal_id}/runs/{run_id}: the user's workflow runs
 * - GET  /conversations; GET, PUT, DELETE /conversations/{conversation_id};
 *   GET /conversations/{conversation_id}/messages
 * - PUT  /messages/{message_id}/feedback; GET /messages/{message_id}/suggested
 * - GET, POST /groups; PUT, DELETE /groups/{group_id}: the user's conversation groups
 * - GET  /usage-records
 * - POST /files/upload (multipart `file`): an attachment owned by the user (no workspace), for
 *   `files` of the run bodies
 * - legacy (deprecated, same data): GET /usage-record/list (= /usage-records),
 *   GET /conversation/find?conversation_id= (= GET /conversations/{conversation_id})
 */

export const PORTAL_PAGE_MAX = 1000;
/** Usage records: page size 10 (spec 9 "Usage-record lookup page size 10"). */
export const USAGE_PAGE_SIZE = 10;
export const CONVERSATION_NAME_MAX = 100;
export const PERSONA_MAX = 2000;
export const GROUP_NAME_MAX = 50;
/** Groups one user may have. */
export const GROUPS_MAX = 100;

const Values = z.record(z.string(), z.unknown());

export const PortalParams = z.object({ portal_id: z.string().max(64).describe("The app's id") });
export const PortalRunParams = PortalParams.extend({ run_id: z.string().max(64).describe('Run id') });
export const WebConversationParams = z.object({ conversation_id: z.string().max(64).describe('Conversation id') });
export const WebMessageParams = z.object({ message_id: z.string().max(64).describe('Message id') });
export const WebGroupParams = z.object({ group_id: z.string().max(64).describe('Group id') });

// ------------------------------------------------------------------ the apps a user may use

/** An app in the portal (discover's card). */
export const PortalApp = z.object({
  /** The app's id (the `portal_id` of the other calls). */
  id: Id,
  name: z.string(),
  description: z.string(),
  icon: AppIcon,
  mode: FlowMode,
  /** Why this user sees it: the tenant's portal, or their project space. */
  platform: z.enum(['portal', 'current_project']),
  workspace_id: Id,
  workspace_name: z.string(),
  /** The distributed version's number. */
  version: z.string(),
  distributed_at: Timestamp,
});
export type PortalApp = z.infer<typeof PortalApp>;

/** GET /portal: search by name or description, filter by mode. */
export const PortalListQuery = z.object({
  keyword: z.string().trim().max(100).optional(),
  mode: FlowMode.optional(),
  page: pageNumber,
  page_size: pageSize(PORTAL_PAGE_MAX, 100),
});
export type PortalListQuery = z.infer<typeof PortalListQuery>;

/** A field of a workflow's start form (or a chat app's inputs), as the portal's form draws it. */
export const PortalInputField = z.object({
  name: z.string(),
  label: z.string(),
  type: z.enum(['text', 'paragraph', 'number', 'select', 'file', 'file-list', 'checkbox']),
  required: z.boolean(),
  options: z.array(z.string()),
  max_length: z.number().int().nullable(),
  default: z.unknown().optional(),
  allowed_extensions: z.array(z.string()),
});
export type PortalInputField = z.infer<typeof PortalInputField>;

/** GET /portal/{portal_id}: what the chat or run page needs. */
export const PortalAppDetail = PortalApp.extend({
  /** The distributed version's features (opening statement, suggested questions, uploads…). */
  features: AppFeatures,
  /** The start node's fields (workflow: the run form; chat apps: inputs asked once per conversation). */
  inputs: z.array(PortalInputField),
  /** Conversation variables the flow declares (names and types; values are per conversation). */
  conversation_variables: z.array(z.object({ name: z.string(), type: z.string(), description: z.string() })),
  /**
   * The character the app speaks as when it is a digital human (issue 31): its portrait or idle
   * clip (public URLs), voice and greeting, for a speaking avatar; null otherwise. Its greeting is
   * the opening statement when the app has none, and its persona joins the conversation's.
   */
  character: PortalCharacter.nullable().optional(),
});
export type PortalAppDetail = z.infer<typeof PortalAppDetail>;

// ------------------------------------------------------------------ chat and runs

/**
 * POST /portal/{portal_id}/chat-messages: a message to a chat app (SSE, like the console's draft chat:
 * `run_created`, the run events, then {@link WebMessageEnd}). Without `conversation_id` a conversation
 * starts. `regenerate_message_id` answers that message's question again, with its files (it must be
 * the conversation's last message; it is replaced; `query` is then not used). Without `inputs`, a
 * message of an existing conversation reuses the inputs of its last run (asked once per conversation).
 *
 * The run events of a portal stream (chat and workflow) are the end user's view: `node_chunk` is not
 * sent (the answer streams as `answer_chunk`), and node events carry empty `inputs`/`outputs` (and
 * `loop_next` empty `variables`): the nodes' progress shows, their data does not.
 */
export const WebChatBody = z
  .object({
    query: z.string().min(1).max(100_000),
    conversation_id: Id.optional(),
    inputs: Values.optional(),
    files: z.array(RunFileRef).max(20).optional(),
    regenerate_message_id: Id.optional(),
  })
  .strict();
export type WebChatBody = z.infer<typeof WebChatBody>;

/** POST /portal/{portal_id}/workflow-runs: a workflow run with the form's values (SSE). */
export const WebWorkflowBody = z.object({ inputs: Values, files: z.array(RunFileRef).max(20).optional() }).strict();
export type WebWorkflowBody = z.infer<typeof WebWorkflowBody>;

/** A knowledge passage an answer used (shown under the answer when the app's `citations` feature is on). */
export const Citation = z.object({
  dataset_id: z.string(),
  dataset_name: z.string(),
  document_id: z.string(),
  document_name: z.string(),
  segment_id: z.string(),
  content: z.string(),
  score: z.number(),
});
export type Citation = z.infer<typeof Citation>;

/** The last frame of a portal chat stream, once the answer is stored. */
export const WebMessageEnd = z.object({
  type: z.literal('message_end'),
  messageId: Id,
  conversationId: Id,
  citations: z.array(Citation),
  usage: TokenUsage,
});
export type WebMessageEnd = z.infer<typeof WebMessageEnd>;

export const FeedbackRating = z.enum(['like', 'dislike']);
export type FeedbackRating = z.infer<typeof FeedbackRating>;

/** A message as the portal shows it. */
export const WebMessage = z.object({
  id: Id,
  conversation_id: Id,
  query: z.string(),
  answer: z.string(),
  files: z.array(RunFileRef),
  status: RunStatus,
  error: RunError.nullable(),
  citations: z.array(Citation),
  feedback: FeedbackRating.nullable(),
  usage: TokenUsage,
  elapsed_ms: z.number(),
  created_at: Timestamp,
});
export type WebMessage = z.infer<typeof WebMessage>;

/**
 * GET /conversations/{conversation_id}/messages: newest first, `limit` at a time; pass the oldest id
 * seen as `before_id` for the page above it (history paged as the user scrolls up).
 */
export const WebMessageQuery = z.object({
  before_id: Id.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const WebMessagePage = z.object({ list: z.array(WebMessage), has_more: z.boolean() });
export type WebMessagePage = z.infer<typeof WebMessagePage>;

/** PUT /messages/{message_id}/feedback: like, dislike, or null to take it back. */
export const FeedbackBody = z.object({ rating: FeedbackRating.nullable() }).strict();

/** GET /messages/{message_id}/suggested: follow-up questions (the app's `suggested_questions_after_answer`). */
export const SuggestedQuestions = z.object({ questions: z.array(z.string()).max(3) });

// ------------------------------------------------------------------ conversations (the sessions page)

export const WebConversation = z.object({
  id: Id,
  app_id: Id,
  app_name: z.string(),
  app_icon: AppIcon,
  app_mode: FlowMode,
  name: z.string(),
  pinned: z.boolean(),
  group_id: Id.nullable(),
  /** The character the user set for this conversation ('' for none). */
  persona: z.string(),
  /** The user may still send messages (false: the distribution was cancelled or they left the space). */
  accessible: z.boolean(),
  message_count: z.number().int(),
  last_message_at: Timestamp.nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type WebConversation = z.infer<typeof WebConversation>;

/** GET /conversations: the user's own, pinned first then newest. */
export const WebConversationQuery = z.object({
  app_id: Id.optional(),
  group_id: Id.optional(),
  keyword: z.string().trim().max(100).optional(),
  page: pageNumber,
  page_size: pageSize(PORTAL_PAGE_MAX, 50),
});
export type WebConversationQuery = z.infer<typeof WebConversationQuery>;

/** PUT /conversations/{conversation_id}: rename, pin, move to a group (null: out of it), set the character. */
export const WebConversationUpdateBody = z
  .object({
    name: z.string().trim().min(1).max(CONVERSATION_NAME_MAX).optional(),
    pinned: z.boolean().optional(),
    group_id: Id.nullable().optional(),
    persona: z.string().trim().max(PERSONA_MAX).optional(),
  })
  .strict();
export type WebConversationUpdateBody = z.infer<typeof WebConversationUpdateBody>;

/** The user's own groups of conversations. */
export const ConversationGroup = z.object({ id: Id, name: z.string(), conversation_count: z.number().int(), created_at: Timestamp });
export type ConversationGroup = z.infer<typeof ConversationGroup>;
export const ConversationGroupBody = z.object({ name: z.string().trim().min(1).max(GROUP_NAME_MAX) }).strict();

// ------------------------------------------------------------------ workflow runs and usage

/** A run of a workflow in the portal (the user's own), with what the run page shows. */
export const WebRun = z.object({
  id: Id,
  app_id: Id,
  status: RunStatus,
  inputs: Values,
  outputs: Values,
  error: RunError.nullable(),
  elapsed_ms: z.number(),
  usage: TokenUsage,
  created_at: Timestamp,
  finished_at: Timestamp.nullable(),
  /** The steps in order: titles and states only (end users do not see a node's inputs and outputs). */
  steps: z.array(z.object({ node_id: z.string(), title: z.string(), kind: z.string(), status: z.string(), elapsed_ms: z.number() })),
});
export type WebRun = z.infer<typeof WebRun>;
export const WebRunQuery = z.object({ page: pageNumber, page_size: pageSize(PORTAL_PAGE_MAX, 20) });

/** One use of an app by the user (personal center: usage records). */
export const UsageRecord = z.object({
  id: Id,
  app_id: Id,
  app_name: z.string(),
  app_mode: FlowMode,
  /** Where it ran (the run's source: portal, api, draft, tool…; single-node runs are not usage records). */
  source: RunSource,
  conversation_id: Id.nullable(),
  status: RunStatus,
  /** The question (chat) or '' (workflow). */
  query: z.string(),
  usage: TokenUsage,
  elapsed_ms: z.number(),
  created_at: Timestamp,
});
export type UsageRecord = z.infer<typeof UsageRecord>;
export const UsageRecordQuery = z.object({ app_id: Id.optional(), page: pageNumber, page_size: pageSize(PORTAL_PAGE_MAX, USAGE_PAGE_SIZE) });

/** GET /conversation/find (legacy): the conversation by id in the query. */
export const ConversationFindQuery = z.object({ conversation_id: z.string().max(64) });

export const webPage = <T extends z.ZodType>(item: T) =>
  z.object({ list: z.array(item), total: z.number().int(), page: z.number().int(), page_size: z.number().int() });
