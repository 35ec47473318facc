/**
 * The api tab's documentation of ONE app, generated from its published flow document: the endpoints
 * its mode offers (Dify's service-API paths and payloads, and OpenAI's chat completions for chat apps),
 * each with a request example that uses the app's real start-form inputs and a response example.
 * Pure; the texts (titles, descriptions) are i18n keys the page translates (`appapi:endpoints.<id>`).
 */
import type { FlowDocument, FlowMode } from '../../../../../schemas/flow';
import { featuresOf, isChatMode } from '../../../../../schemas/flow';
import type { PortalInputField } from '../../../../../schemas/portal';

/** A start node's field as stored in its config (core code reads it by shape: it never imports a kind's folder). */
interface StartField {
  name: string;
  label: string;
  type: Exclude<PortalInputField['type'], 'checkbox'>;
  required: boolean;
  options: string[];
  allowed_extensions: string[];
}
import type {
  ChatBlockingResponse,
  ChatCompletion,
  ChatCompletionChunk,
  DifyConversation,
  DifyMessage,
  DifyParameters,
  DifyUploadedFile,
  DifyUsage,
  OpenAiModelList,
  WorkflowBlockingResponse,
  WorkflowRunData,
} from '../../../../../schemas/public-api';
import type { z } from 'zod';
import type { CallExample } from './api-snippets';

/** A start-form field as the docs need it. */
export interface ApiInput {
  name: string;
  label: string;
  type: StartField['type'];
  required: boolean;
  options: string[];
  allowed_extensions: string[];
}

/** One endpoint of the app's API. */
export interface EndpointDoc {
  /** Stable id: the i18n key under `appapi:endpoints` and the test id. */
  id: string;
  call: CallExample;
  /** Response examples: a JSON answer and, for runs, the streamed events. */
  responses: { kind: 'json' | 'stream'; text: string }[];
  /** OpenAI-compatible endpoints are grouped apart. */
  group: 'app' | 'openai';
}

/** The example end-user id every example sends (Dify's `user`: conversations belong to app + user). */
export const EXAMPLE_USER = 'user-123';

const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.svg', '.bmp']);

/** The start node's fields of a flow document (none when it has no start node or no valid fields). */
export function startInputs(document: Pick<FlowDocument, 'nodes'> | null | undefined): ApiInput[] {
  const start = document?.nodes.find((n) => n.kind === 'start');
  const variables = (start?.config as { variables?: Partial<StartField>[] } | undefined)?.variables;
  if (!Array.isArray(variables)) return [];
  return variables
    .filter((v): v is Partial<StartField> & { name: string } => typeof v?.name === 'string' && v.name.length > 0)
    .map((v) => ({
      name: v.name,
      label: typeof v.label === 'string' ? v.label : '',
      type: v.type ?? 'text',
      required: v.required !== false,
      options: Array.isArray(v.options) ? v.options.filter((o) => typeof o === 'string') : [],
      allowed_extensions: Array.isArray(v.allowed_extensions) ? v.allowed_extensions : [],
    }));
}

/** Dify's file kind of a file field: images when every accepted extension is an image's. */
const fileKind = (input: ApiInput) =>
  input.allowed_extensions.length > 0 && input.allowed_extensions.every((e) => IMAGE_EXTENSIONS.has(e.toLowerCase())) ? 'image' : 'document';

/** A file given in `inputs`: one uploaded through /files/upload (its id from that answer). */
const fileRef = (input: ApiInput) => ({ type: fileKind(input), transfer_method: 'local_file', upload_file_id: 'FILE_ID' });

/** An example value of a field, in the shape the API takes it. */
export function exampleValue(input: ApiInput): unknown {
  switch (input.type) {
    case 'number':
      return 1;
    case 'select':
      return input.options.find((o) => o.trim()) ?? '';
    case 'file':
      return fileRef(input);
    case 'file-list':
      return [fileRef(input)];
    default:
      return input.label || input.name;
  }
}

/** `inputs` of a request: every field with an example value. */
export const exampleInputs = (inputs: readonly ApiInput[]): Record<string, unknown> => Object.fromEntries(inputs.map((i) => [i.name, exampleValue(i)]));

const IDS = {
  task: '8f2d1e6b-5c0a-4d8e-9b7f-3a1c2e4d5f60',
  message: '0b7a3c55-2f4e-4a1d-8c6b-9e0f1a2b3c4d',
  conversation: '45701982-8118-4bc5-8e9b-64562b4555f2',
  run: 'fb47b2e6-9d3c-4f0a-a1b2-c3d4e5f6a7b8',
  version: '5d1c7e2a-3b4f-4c6d-8e9f-0a1b2c3d4e5f',
  node: 'c2a4e6f8-1b3d-4f5a-9c7e-2d4f6a8b0c1e',
  file: '72fa9618-8f89-4a37-9b33-7e1178a24a67',
} as const;
const CREATED = 1767225600;

const json = (value: unknown) => ({ kind: 'json' as const, text: JSON.stringify(value, null, 2) });
const sse = (events: unknown[]) => ({ kind: 'stream' as const, text: events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') });
/** Dify's frames as the server sends them: each with its `id:` (the event's number, for resuming with Last-Event-ID). */
const difySse = (events: unknown[]) => ({ kind: 'stream' as const, text: events.map((e, i) => `id: ${i + 1}\ndata: ${JSON.stringify(e)}\n\n`).join('') });
const tokens = { prompt_tokens: 1033, completion_tokens: 128, total_tokens: 1161 };
// Weft has no prices: Dify's price fields are "0".
const usage: DifyUsage = {
  prompt_tokens: tokens.prompt_tokens,
  prompt_unit_price: '0',
  prompt_price_unit: '0',
  prompt_price: '0',
  completion_tokens: tokens.completion_tokens,
  completion_unit_price: '0',
  completion_price_unit: '0',
  completion_price: '0',
  total_tokens: tokens.total_tokens,
  total_price: '0',
  currency: 'USD',
  latency: 1.27,
};
/** Dify's name of a chat app's mode in its answers. */
const difyMode = (mode: FlowMode) => (mode === 'agent' ? 'agent-chat' : mode === 'chatflow' ? 'advanced-chat' : 'chat');

/** The endpoints that every mode has: file upload and the app's parameters (its start form in Dify's shape). */
function commonEndpoints(mode: FlowMode, inputs: readonly ApiInput[], document: Pick<FlowDocument, 'features'> | null): EndpointDoc[] {
  const chat = isChatMode(mode);
  // A workflow offers its end users none of the chat features.
  const f = featuresOf(chat ? (document ?? {}) : {});
  const up = f.file_upload;
  const control: Record<ApiInput['type'], string> = { text: 'text-input', paragraph: 'paragraph', select: 'select', number: 'number', file: 'file', 'file-list': 'file-list' };
  const formItem = (i: ApiInput) => ({
    [control[i.type] ?? 'text-input']: {
      label: i.label || i.name,
      variable: i.name,
      required: i.required,
      default: '',
      ...(i.type === 'select' ? { options: i.options } : {}),
      ...(i.type === 'file' || i.type === 'file-list' ? { allowed_file_extensions: i.allowed_extensions } : {}),
    },
  });
  const uploaded: DifyUploadedFile = { id: IDS.file, name: 'report.pdf', size: 52480, extension: 'pdf', mime_type: 'application/pdf', created_by: EXAMPLE_USER, created_at: CREATED };
  const parameters: DifyParameters = {
    opening_statement: f.opening_statement,
    suggested_questions: f.suggested_questions_random_count > 0 ? f.suggested_questions.slice(0, f.suggested_questions_random_count) : f.suggested_questions,
    suggested_questions_after_answer: { enabled: f.suggested_questions_after_answer },
    speech_to_text: { enabled: false },
    text_to_speech: { enabled: false, voice: '', language: '', autoPlay: 'disabled' },
    retriever_resource: { enabled: chat && f.citations },
    annotation_reply: { enabled: false },
    more_like_this: { enabled: false },
    sensitive_word_avoidance: { enabled: false },
    user_input_form: inputs.map(formItem),
    file_upload: {
      enabled: up.enabled,
      allowed_file_types: up.enabled ? up.types : [],
      allowed_file_upload_methods: ['local_file'],
      number_limits: up.max_count,
      image: { enabled: up.enabled && up.types.includes('image'), number_limits: up.max_count, detail: up.image_detail, transfer_methods: ['local_file'] },
    },
    system_parameters: { file_size_limit: 50, image_file_size_limit: 50, audio_file_size_limit: 50, video_file_size_limit: 50 },
  };
  return [
    {
      id: 'upload',
      group: 'app',
      call: { method: 'POST', path: '/files/upload', multipart: { fields: { user: EXAMPLE_USER }, file: { field: 'file', name: 'report.pdf', type: 'application/pdf' } } },
      responses: [json(uploaded)],
    },
    { id: 'parameters', group: 'app', call: { method: 'GET', path: '/parameters' }, responses: [json(parameters)] },
  ];
}

function chatEndpoints(appId: string, mode: FlowMode, inputs: readonly ApiInput[]): EndpointDoc[] {
  const answer = 'Hello! How can I help you today?';
  const stop = { user: EXAMPLE_USER };
  const ids = { task_id: IDS.task, workflow_run_id: IDS.task, conversation_id: IDS.conversation, message_id: IDS.message, created_at: CREATED };
  const blocking: ChatBlockingResponse = { event: 'message', task_id: IDS.task, id: IDS.message, message_id: IDS.message, conversation_id: IDS.conversation, mode: difyMode(mode), answer, metadata: { usage, retriever_resources: [] }, created_at: CREATED };
  const conversation: DifyConversation = { id: IDS.conversation, name: 'Hello', inputs: exampleInputs(inputs), status: 'normal', introduction: '', created_at: CREATED, updated_at: CREATED };
  const message: DifyMessage = { id: IDS.message, conversation_id: IDS.conversation, inputs: exampleInputs(inputs), query: 'Hello', answer, message_files: [], feedback: null, retriever_resources: [], created_at: CREATED };
  const completion: ChatCompletion = {
    id: `chatcmpl-${IDS.message}`,
    object: 'chat.completion',
    created: CREATED,
    model: appId,
    choices: [{ index: 0, message: { role: 'assistant', content: answer, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: tokens,
    conversation_id: IDS.conversation,
  };
  const chunk = (delta: ChatCompletionChunk['choices'][number]['delta'], finish: 'stop' | null): ChatCompletionChunk => ({
    id: `chatcmpl-${IDS.message}`,
    object: 'chat.completion.chunk',
    created: CREATED,
    model: appId,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const model: z.infer<typeof OpenAiModelList>['data'][number] = { id: appId, object: 'model', created: CREATED, owned_by: 'weft' };
  return [
    {
      id: 'chat',
      group: 'app',
      call: { method: 'POST', path: '/chat-messages', json: { inputs: exampleInputs(inputs), query: 'Hello', response_mode: 'blocking', conversation_id: '', user: EXAMPLE_USER } },
      responses: [
        json(blocking),
        difySse([
          { event: 'message', ...ids, id: IDS.message, answer: 'Hello!' },
          { event: 'message', ...ids, id: IDS.message, answer: ' How can I help you today?' },
          { event: 'message_end', ...ids, id: IDS.message, metadata: { usage, retriever_resources: [] }, files: [] },
        ]),
      ],
    },
    { id: 'chatStop', group: 'app', call: { method: 'POST', path: '/chat-messages/:task_id/stop', json: stop }, responses: [json({ result: 'success' })] },
    {
      id: 'conversations',
      group: 'app',
      call: { method: 'GET', path: '/conversations', query: { user: EXAMPLE_USER, limit: 20 } },
      responses: [json({ limit: 20, has_more: false, data: [conversation] })],
    },
    {
      id: 'rename',
      group: 'app',
      call: { method: 'POST', path: '/conversations/:conversation_id/name', json: { name: 'Order questions', user: EXAMPLE_USER } },
      responses: [json({ ...conversation, name: 'Order questions' })],
    },
    { id: 'deleteConversation', group: 'app', call: { method: 'DELETE', path: '/conversations/:conversation_id', json: { user: EXAMPLE_USER } }, responses: [json({ result: 'success' })] },
    {
      id: 'messages',
      group: 'app',
      call: { method: 'GET', path: '/messages', query: { conversation_id: IDS.conversation, user: EXAMPLE_USER, limit: 20 } },
      responses: [json({ limit: 20, has_more: false, data: [message] })],
    },
    { id: 'feedback', group: 'app', call: { method: 'POST', path: '/messages/:message_id/feedbacks', json: { rating: 'like', user: EXAMPLE_USER } }, responses: [json({ result: 'success' })] },
    {
      id: 'completions',
      group: 'openai',
      call: { method: 'POST', path: '/chat/completions', json: { model: appId, messages: [{ role: 'user', content: 'Hello' }], stream: false } },
      responses: [
        json(completion),
        // OpenAI's stream ends with a [DONE] line after the last chunk.
        { kind: 'stream', text: `${sse([chunk({ role: 'assistant', content: 'Hello!' }, null), chunk({ content: ' How can I help you today?' }, null), chunk({}, 'stop')]).text}data: [DONE]\n\n` },
      ],
    },
    { id: 'models', group: 'openai', call: { method: 'GET', path: '/models' }, responses: [json({ object: 'list', data: [model] })] },
  ];
}

function workflowEndpoints(inputs: readonly ApiInput[], outputs: readonly string[]): EndpointDoc[] {
  const finished: WorkflowRunData = {
    id: IDS.run,
    workflow_id: IDS.version,
    status: 'succeeded',
    outputs: Object.fromEntries(outputs.map((o) => [o, '…'])),
    error: null,
    elapsed_time: 0.87,
    total_tokens: 0,
    total_steps: 3,
    created_at: CREATED,
    finished_at: CREATED + 1,
  };
  const blocking: WorkflowBlockingResponse = { task_id: IDS.run, workflow_run_id: IDS.run, data: finished };
  const ids = { task_id: IDS.run, workflow_run_id: IDS.run };
  const node = { id: IDS.node, node_id: 'start', node_type: 'start', title: 'Start', index: 1, predecessor_node_id: null, inputs: exampleInputs(inputs) };
  return [
    {
      id: 'run',
      group: 'app',
      call: { method: 'POST', path: '/workflows/run', json: { inputs: exampleInputs(inputs), response_mode: 'blocking', user: EXAMPLE_USER } },
      responses: [
        json(blocking),
        difySse([
          { event: 'workflow_started', ...ids, data: { id: IDS.run, workflow_id: IDS.version, sequence_number: 1, inputs: exampleInputs(inputs), created_at: CREATED } },
          { event: 'node_started', ...ids, data: { ...node, created_at: CREATED } },
          { event: 'node_finished', ...ids, data: { ...node, process_data: null, outputs: exampleInputs(inputs), status: 'succeeded', error: null, elapsed_time: 0.01, execution_metadata: { total_tokens: 0, total_price: 0, currency: 'USD' }, created_at: CREATED, finished_at: CREATED } },
          { event: 'workflow_finished', ...ids, data: finished },
        ]),
      ],
    },
    { id: 'runStop', group: 'app', call: { method: 'POST', path: '/workflows/tasks/:task_id/stop', json: { user: EXAMPLE_USER } }, responses: [json({ result: 'success' })] },
  ];
}

/** The names a workflow's end node returns (its outputs). */
export function endOutputs(document: Pick<FlowDocument, 'nodes'> | null | undefined): string[] {
  const end = document?.nodes.find((n) => n.kind === 'end');
  const outputs = (end?.config as { outputs?: { name?: unknown }[] } | undefined)?.outputs;
  return Array.isArray(outputs) ? outputs.map((o) => o?.name).filter((n): n is string => typeof n === 'string' && n.length > 0) : [];
}

/**
 * Every endpoint of the app, in the order the docs show them (the run call first).
 * @example buildEndpoints('a1', 'workflow', doc).map((e) => e.id) // ['run', 'runStop', 'upload', 'parameters']
 */
export function buildEndpoints(appId: string, mode: FlowMode, document: Pick<FlowDocument, 'nodes' | 'features'> | null): EndpointDoc[] {
  const inputs = startInputs(document);
  const own = isChatMode(mode) ? chatEndpoints(appId, mode, inputs) : workflowEndpoints(inputs, endOutputs(document));
  const common = commonEndpoints(mode, inputs, document);
  return [...own.filter((e) => e.group === 'app'), ...common, ...own.filter((e) => e.group === 'openai')];
}
