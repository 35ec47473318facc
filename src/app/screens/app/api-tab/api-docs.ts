/**
 * The api tab's documentation of ONE app, generated from its published flow document: the endpoints
 * its mode offers (Dify's service-API paths and payloads, and OpenAI's chat completions for chat apps),
 * each with a request example that uses the app's real start-form inputs and a response example.
 * Pure; the texts (titles, descriptions) are i18n keys the page translates (`appapi:endpoints.<id>`).
 */
import type { FlowDocument, FlowMode } from '../../../../../schemas/flow';
import { featuresOf, isChatMode } from '../../../../../schemas/flow';
import type { StartField } from '../../../../../plugins/start/manifest';
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
  file: '72fa9618-8f89-4a37-9b33-7e1178a24a67',
} as const;
const CREATED = 1767225600;

const json = (value: unknown) => ({ kind: 'json' as const, text: JSON.stringify(value, null, 2) });
const sse = (events: unknown[]) => ({ kind: 'stream' as const, text: events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') });
const usage = { prompt_tokens: 1033, completion_tokens: 128, total_tokens: 1161 };

/** The endpoints that every mode has: file upload and the app's parameters (its start form in Dify's shape). */
function commonEndpoints(mode: FlowMode, inputs: readonly ApiInput[], document: Pick<FlowDocument, 'features'> | null): EndpointDoc[] {
  const features = featuresOf(document ?? {});
  const formItem = (i: ApiInput) => {
    const kind = i.type === 'text' ? 'text-input' : i.type;
    const item: Record<string, unknown> = { label: i.label || i.name, variable: i.name, required: i.required };
    if (i.type === 'select') item.options = i.options;
    if (i.type === 'file' || i.type === 'file-list') item.allowed_file_extensions = i.allowed_extensions;
    return { [kind]: item };
  };
  const chat = isChatMode(mode);
  return [
    {
      id: 'upload',
      group: 'app',
      call: { method: 'POST', path: '/files/upload', multipart: { fields: { user: EXAMPLE_USER }, file: { field: 'file', name: 'report.pdf', type: 'application/pdf' } } },
      responses: [json({ id: IDS.file, name: 'report.pdf', size: 52480, extension: 'pdf', mime_type: 'application/pdf', created_by: EXAMPLE_USER, created_at: CREATED })],
    },
    {
      id: 'parameters',
      group: 'app',
      call: { method: 'GET', path: '/parameters' },
      responses: [
        json({
          opening_statement: chat ? features.opening_statement : '',
          suggested_questions: chat ? features.suggested_questions : [],
          suggested_questions_after_answer: { enabled: chat && features.suggested_questions_after_answer },
          user_input_form: inputs.map(formItem),
          file_upload: {
            enabled: chat && features.file_upload.enabled,
            allowed_file_types: features.file_upload.types,
            number_limits: features.file_upload.max_count,
            image: { detail: features.file_upload.image_detail },
          },
        }),
      ],
    },
  ];
}

function chatEndpoints(appId: string, inputs: readonly ApiInput[]): EndpointDoc[] {
  const answer = { answer: 'Hello! How can I help you today?' };
  const stop = { user: EXAMPLE_USER };
  return [
    {
      id: 'chat',
      group: 'app',
      call: { method: 'POST', path: '/chat-messages', json: { inputs: exampleInputs(inputs), query: 'Hello', response_mode: 'blocking', conversation_id: '', user: EXAMPLE_USER } },
      responses: [
        json({ event: 'message', task_id: IDS.task, id: IDS.message, message_id: IDS.message, conversation_id: IDS.conversation, mode: 'chat', ...answer, metadata: { usage }, created_at: CREATED }),
        sse([
          { event: 'message', task_id: IDS.task, message_id: IDS.message, conversation_id: IDS.conversation, answer: 'Hello!', created_at: CREATED },
          { event: 'message', task_id: IDS.task, message_id: IDS.message, conversation_id: IDS.conversation, answer: ' How can I help you today?', created_at: CREATED },
          { event: 'message_end', task_id: IDS.task, message_id: IDS.message, conversation_id: IDS.conversation, metadata: { usage } },
        ]),
      ],
    },
    { id: 'chatStop', group: 'app', call: { method: 'POST', path: '/chat-messages/:task_id/stop', json: stop }, responses: [json({ result: 'success' })] },
    {
      id: 'conversations',
      group: 'app',
      call: { method: 'GET', path: '/conversations', query: { user: EXAMPLE_USER, limit: 20 } },
      responses: [json({ limit: 20, has_more: false, data: [{ id: IDS.conversation, name: 'Hello', inputs: exampleInputs(inputs), status: 'normal', created_at: CREATED, updated_at: CREATED }] })],
    },
    {
      id: 'rename',
      group: 'app',
      call: { method: 'POST', path: '/conversations/:conversation_id/name', json: { name: 'Order questions', user: EXAMPLE_USER } },
      responses: [json({ id: IDS.conversation, name: 'Order questions', inputs: exampleInputs(inputs), status: 'normal', created_at: CREATED, updated_at: CREATED })],
    },
    { id: 'deleteConversation', group: 'app', call: { method: 'DELETE', path: '/conversations/:conversation_id', json: { user: EXAMPLE_USER } }, responses: [json({ result: 'success' })] },
    {
      id: 'messages',
      group: 'app',
      call: { method: 'GET', path: '/messages', query: { conversation_id: IDS.conversation, user: EXAMPLE_USER, limit: 20 } },
      responses: [json({ limit: 20, has_more: false, data: [{ id: IDS.message, conversation_id: IDS.conversation, inputs: exampleInputs(inputs), query: 'Hello', ...answer, message_files: [], feedback: null, created_at: CREATED }] })],
    },
    { id: 'feedback', group: 'app', call: { method: 'POST', path: '/messages/:message_id/feedbacks', json: { rating: 'like', user: EXAMPLE_USER } }, responses: [json({ result: 'success' })] },
    {
      id: 'completions',
      group: 'openai',
      call: { method: 'POST', path: '/chat/completions', json: { model: appId, messages: [{ role: 'user', content: 'Hello' }], stream: false } },
      responses: [
        json({
          id: `chatcmpl-${IDS.message}`,
          object: 'chat.completion',
          created: CREATED,
          model: appId,
          choices: [{ index: 0, message: { role: 'assistant', content: answer.answer }, finish_reason: 'stop' }],
          usage,
        }),
        // OpenAI's stream ends with a [DONE] line after the last chunk.
        {
          kind: 'stream',
          text: `${
            sse([
              { id: `chatcmpl-${IDS.message}`, object: 'chat.completion.chunk', created: CREATED, model: appId, choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello!' }, finish_reason: null }] },
              { id: `chatcmpl-${IDS.message}`, object: 'chat.completion.chunk', created: CREATED, model: appId, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
            ]).text
          }data: [DONE]\n\n`,
        },
      ],
    },
    {
      id: 'models',
      group: 'openai',
      call: { method: 'GET', path: '/models' },
      responses: [json({ object: 'list', data: [{ id: appId, object: 'model', created: CREATED, owned_by: 'weft' }] })],
    },
  ];
}

function workflowEndpoints(inputs: readonly ApiInput[], outputs: readonly string[]): EndpointDoc[] {
  const finished = { id: IDS.run, workflow_id: IDS.run, status: 'succeeded', outputs: Object.fromEntries(outputs.map((o) => [o, '…'])), error: null, elapsed_time: 0.87, total_tokens: 0, total_steps: 3, created_at: CREATED, finished_at: CREATED + 1 };
  return [
    {
      id: 'run',
      group: 'app',
      call: { method: 'POST', path: '/workflows/run', json: { inputs: exampleInputs(inputs), response_mode: 'blocking', user: EXAMPLE_USER } },
      responses: [
        json({ workflow_run_id: IDS.run, task_id: IDS.task, data: finished }),
        sse([
          { event: 'workflow_started', task_id: IDS.task, workflow_run_id: IDS.run, data: { id: IDS.run, workflow_id: IDS.run, created_at: CREATED } },
          { event: 'node_started', task_id: IDS.task, workflow_run_id: IDS.run, data: { node_id: 'start', node_type: 'start', title: 'Start', index: 1, created_at: CREATED } },
          { event: 'node_finished', task_id: IDS.task, workflow_run_id: IDS.run, data: { node_id: 'start', node_type: 'start', title: 'Start', index: 1, status: 'succeeded', elapsed_time: 0.01, created_at: CREATED } },
          { event: 'workflow_finished', task_id: IDS.task, workflow_run_id: IDS.run, data: finished },
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
  const own = isChatMode(mode) ? chatEndpoints(appId, inputs) : workflowEndpoints(inputs, endOutputs(document));
  const common = commonEndpoints(mode, inputs, document);
  return [...own.filter((e) => e.group === 'app'), ...common, ...own.filter((e) => e.group === 'openai')];
}
