import { z } from 'zod';
import { TextToAudioBody } from './speech';

/**
 * The public API under `/v1` (issue 22), authenticated by an app key (`Authorization: Bearer wk-…`,
 * OpenAPI security scheme `AppKey`). Where Weft and Dify's service API overlap, the paths and payloads
 * are Dify's (its documented request and response examples, recorded in tests/fixtures/dify-api/), so
 * a Dify client works by changing its base URL and key: times are Unix seconds, ids are UUIDs, `user`
 * names the end user (conversations belong to the app and that string). Bodies ignore fields they do
 * not know, as Dify does. Errors answer Dify's `{ code, message, status }` with Weft catalogue codes.
 *
 * `/v1/chat/completions` and `/v1/models` speak OpenAI's chat-completions protocol instead (errors as
 * `{ error: { message, type, code, param } }`). The MCP endpoint (`/v1/mcp/{workspace_id}`) speaks MCP.
 */

export const PUBLIC_PAGE_MAX = 100;

/** The end user: any string the caller chooses, unique within the app. */
export const EndUser = z.string().trim().min(1).max(255).describe('End user identifier (Dify `user`)');
const Values = z.record(z.string(), z.unknown());
const unix = z.number().int().describe('Unix time, seconds');

/** A file given to a run: an upload of this end user (`local_file`, from POST /v1/files/upload). */
export const DifyFileRef = z.object({
  type: z.enum(['document', 'image', 'audio', 'video', 'custom']).optional(),
  transfer_method: z.enum(['local_file', 'remote_url']),
  upload_file_id: z.string().max(64).optional(),
  url: z.string().max(2048).optional(),
});
export type DifyFileRef = z.infer<typeof DifyFileRef>;

export const ResponseMode = z.enum(['streaming', 'blocking']);

/** POST /v1/chat-messages. `response_mode` defaults to blocking (Dify: anything but `streaming`). */
export const ChatMessageBody = z.object({
  query: z.string().min(1).max(100_000),
  inputs: Values.default({}),
  response_mode: ResponseMode.default('blocking'),
  user: EndUser,
  /** Empty or absent: a new conversation. */
  conversation_id: z.string().max(64).optional(),
  files: z.array(DifyFileRef).max(100).optional(),
  auto_generate_name: z.boolean().optional(),
});
export type ChatMessageBody = z.infer<typeof ChatMessageBody>;

/** POST /v1/workflows/run. */
export const WorkflowRunBody = z.object({
  inputs: Values.default({}),
  response_mode: ResponseMode.default('blocking'),
  user: EndUser,
  files: z.array(DifyFileRef).max(100).optional(),
});
export type WorkflowRunBody = z.infer<typeof WorkflowRunBody>;

export const UserBody = z.object({ user: EndUser });
export const UserQuery = z.object({ user: EndUser });
export const TaskParams = z.object({ task_id: z.string().max(64) });
export const ConversationIdParams = z.object({ conversation_id: z.string().max(64) });
export const MessageIdParams = z.object({ message_id: z.string().max(64) });

/** `{ "result": "success" }`: stop, delete, feedback. */
export const DifyResult = z.object({ result: z.literal('success') });

/** Token usage as Dify reports it (Weft has no prices: they are "0"). */
export const DifyUsage = z.object({
  prompt_tokens: z.number().int(),
  prompt_unit_price: z.string(),
  prompt_price_unit: z.string(),
  prompt_price: z.string(),
  completion_tokens: z.number().int(),
  completion_unit_price: z.string(),
  completion_price_unit: z.string(),
  completion_price: z.string(),
  total_tokens: z.number().int(),
  total_price: z.string(),
  currency: z.string(),
  /** Seconds. */
  latency: z.number(),
});
export type DifyUsage = z.infer<typeof DifyUsage>;

export const RetrieverResource = z.object({
  position: z.number().int(),
  dataset_id: z.string(),
  dataset_name: z.string(),
  document_id: z.string(),
  document_name: z.string(),
  segment_id: z.string(),
  score: z.number(),
  content: z.string(),
});
export type RetrieverResource = z.infer<typeof RetrieverResource>;

export const DifyMetadata = z.object({ usage: DifyUsage, retriever_resources: z.array(RetrieverResource) });

/** The blocking answer of POST /v1/chat-messages (Dify's ChatCompletionResponse). */
export const ChatBlockingResponse = z.object({
  event: z.literal('message'),
  task_id: z.string(),
  id: z.string(),
  message_id: z.string(),
  conversation_id: z.string(),
  mode: z.string(),
  answer: z.string(),
  metadata: DifyMetadata,
  created_at: unix,
});
export type ChatBlockingResponse = z.infer<typeof ChatBlockingResponse>;

/** A run's result as Dify's `workflow_finished` data and blocking workflow answer carry it. */
export const WorkflowRunData = z.object({
  id: z.string(),
  workflow_id: z.string(),
  status: z.enum(['running', 'succeeded', 'failed', 'stopped']),
  outputs: Values,
  error: z.string().nullable(),
  /** Seconds. */
  elapsed_time: z.number(),
  total_tokens: z.number().int(),
  total_steps: z.number().int(),
  created_at: unix,
  finished_at: unix,
});
export type WorkflowRunData = z.infer<typeof WorkflowRunData>;

/** The blocking answer of POST /v1/workflows/run. */
export const WorkflowBlockingResponse = z.object({ task_id: z.string(), workflow_run_id: z.string(), data: WorkflowRunData });
export type WorkflowBlockingResponse = z.infer<typeof WorkflowBlockingResponse>;

/** GET /v1/conversations: newest first by default (`-updated_at`), `last_id` for the next page. */
export const ConversationsQuery = z.object({
  user: EndUser,
  last_id: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(PUBLIC_PAGE_MAX).default(20),
  sort_by: z.enum(['created_at', '-created_at', 'updated_at', '-updated_at']).default('-updated_at'),
});
export type ConversationsQuery = z.infer<typeof ConversationsQuery>;

export const DifyConversation = z.object({
  id: z.string(),
  name: z.string(),
  inputs: Values,
  status: z.string(),
  introduction: z.string(),
  created_at: unix,
  updated_at: unix,
});
export type DifyConversation = z.infer<typeof DifyConversation>;
export const DifyConversationPage = z.object({ limit: z.number().int(), has_more: z.boolean(), data: z.array(DifyConversation) });

/** POST /v1/conversations/{id}/name: a name, or `auto_generate` (from the first question). */
export const RenameBody = z
  .object({ name: z.string().trim().max(255).optional(), auto_generate: z.boolean().default(false), user: EndUser })
  .refine((b) => b.auto_generate || (b.name !== undefined && b.name !== ''), { message: 'name is required when auto_generate is false', path: ['name'] });

/** GET /v1/messages: the conversation's latest `limit` messages, oldest first; `first_id` pages upwards. */
export const MessagesQuery = z.object({
  conversation_id: z.string().max(64),
  user: EndUser,
  first_id: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(PUBLIC_PAGE_MAX).default(20),
});
export type MessagesQuery = z.infer<typeof MessagesQuery>;

export const DifyMessageFile = z.object({ id: z.string(), type: z.string(), url: z.string(), belongs_to: z.string() });
export const DifyMessage = z.object({
  id: z.string(),
  conversation_id: z.string(),
  inputs: Values,
  query: z.string(),
  answer: z.string(),
  message_files: z.array(DifyMessageFile),
  feedback: z.object({ rating: z.enum(['like', 'dislike']) }).nullable(),
  retriever_resources: z.array(RetrieverResource),
  created_at: unix,
});
export type DifyMessage = z.infer<typeof DifyMessage>;
export const DifyMessagePage = z.object({ limit: z.number().int(), has_more: z.boolean(), data: z.array(DifyMessage) });

/** POST /v1/messages/{id}/feedbacks. */
export const FeedbackBody = z.object({ rating: z.enum(['like', 'dislike']).nullable(), user: EndUser, content: z.string().max(2000).optional() });

/** POST /v1/files/upload (multipart: `file`, `user`). */
export const DifyUploadedFile = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number().int(),
  extension: z.string(),
  mime_type: z.string(),
  created_by: z.string(),
  created_at: unix,
});
export type DifyUploadedFile = z.infer<typeof DifyUploadedFile>;

const Enabled = z.object({ enabled: z.boolean() });
/**
 * Dify's `text_to_speech` of /parameters: the switch, the app's own voice and its language (Dify's
 * codes: zh-Hans, en-US; empty when the app has none of its own and the default voice speaks), and
 * whether answers are read aloud without asking (`autoPlay`, as the portal does when the switch is on).
 */
export const DifyTextToSpeech = z.object({ enabled: z.boolean(), voice: z.string(), language: z.string(), autoPlay: z.enum(['enabled', 'disabled']) });
export type DifyTextToSpeech = z.infer<typeof DifyTextToSpeech>;
/** One field of the start form, keyed by its control as Dify does (`text-input`, `paragraph`, `select`, `number`, `file`, `file-list`, `checkbox`). */
export const UserInputFormItem = z.record(
  z.string(),
  z.object({
    label: z.string(),
    variable: z.string(),
    required: z.boolean(),
    default: z.string(),
    max_length: z.number().int().optional(),
    options: z.array(z.string()).optional(),
    allowed_file_extensions: z.array(z.string()).optional(),
    max_length_files: z.number().int().optional(),
  }),
);

/** GET /v1/parameters: the served version's features and start form. */
export const DifyParameters = z.object({
  opening_statement: z.string(),
  suggested_questions: z.array(z.string()),
  suggested_questions_after_answer: Enabled,
  speech_to_text: Enabled,
  text_to_speech: DifyTextToSpeech,
  retriever_resource: Enabled,
  annotation_reply: Enabled,
  more_like_this: Enabled,
  sensitive_word_avoidance: Enabled,
  user_input_form: z.array(UserInputFormItem),
  file_upload: z.object({
    enabled: z.boolean(),
    allowed_file_types: z.array(z.string()),
    allowed_file_upload_methods: z.array(z.string()),
    number_limits: z.number().int(),
    image: z.object({ enabled: z.boolean(), number_limits: z.number().int(), detail: z.string(), transfer_methods: z.array(z.string()) }),
  }),
  system_parameters: z.object({
    file_size_limit: z.number().int(),
    image_file_size_limit: z.number().int(),
    audio_file_size_limit: z.number().int(),
    video_file_size_limit: z.number().int(),
  }),
});
export type DifyParameters = z.infer<typeof DifyParameters>;

/**
 * POST /v1/text-to-audio (Dify's): the end user's answer `message_id` (read before `text`, as Dify
 * does) or a `text`, spoken in the app's voice; `streaming` is accepted and the audio answered whole.
 */
export const ApiTextToAudioBody = TextToAudioBody.extend({ user: EndUser });
export type ApiTextToAudioBody = z.infer<typeof ApiTextToAudioBody>;

/** POST /v1/audio-to-text (Dify's): the recording's text. */
export const ApiAudioToTextResult = z.object({ text: z.string() });

/** GET /v1/info. */
export const DifyInfo = z.object({ name: z.string(), description: z.string(), tags: z.array(z.string()), mode: z.string() });

/** Every /v1 error (Dify's shape; `code` is a Weft catalogue code). */
export const DifyError = z.object({ code: z.string(), message: z.string(), status: z.number().int() });

// ------------------------------------------------------------------ OpenAI chat completions

const TextPart = z.object({ type: z.literal('text'), text: z.string() });
/** A message of the request; content as text or text parts (other parts are refused). */
export const OpenAiMessage = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(TextPart), z.null()]).optional(),
  name: z.string().optional(),
});
export type OpenAiMessage = z.infer<typeof OpenAiMessage>;

/**
 * POST /v1/chat/completions. The key chooses the app; `model` is taken as given (GET /v1/models names
 * the app). The last user message is the question; the earlier user and assistant turns are the
 * conversation so far (system and developer messages are left out: the app has its own instructions).
 */
export const ChatCompletionBody = z.object({
  model: z.string().max(255),
  messages: z.array(OpenAiMessage).min(1).max(1000),
  stream: z.boolean().default(false),
  user: z.string().trim().min(1).max(255).optional(),
});
export type ChatCompletionBody = z.infer<typeof ChatCompletionBody>;

export const OpenAiUsage = z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() });

export const ChatCompletion = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: unix,
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal('assistant'), content: z.string(), refusal: z.null() }),
      logprobs: z.null(),
      finish_reason: z.enum(['stop', 'length']),
    }),
  ),
  usage: OpenAiUsage,
  /** Weft: the conversation the answer continued (the next request with these turns continues it too). */
  conversation_id: z.string(),
});
export type ChatCompletion = z.infer<typeof ChatCompletion>;

export const ChatCompletionChunk = z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: unix,
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal('assistant').optional(), content: z.string().optional() }),
      logprobs: z.null(),
      finish_reason: z.enum(['stop', 'length']).nullable(),
    }),
  ),
});
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunk>;

export const OpenAiModel = z.object({ id: z.string(), object: z.literal('model'), created: unix, owned_by: z.string() });
export const OpenAiModelList = z.object({ object: z.literal('list'), data: z.array(OpenAiModel) });

export const OpenAiError = z.object({ error: z.object({ message: z.string(), type: z.string(), code: z.string(), param: z.string().nullable() }) });
