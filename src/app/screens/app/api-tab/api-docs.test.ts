import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createEmptyFlow, defaultAppFeatures, type FlowMode } from '../../../../../schemas/flow';
import {
  ChatBlockingResponse,
  ChatCompletion,
  ChatCompletionBody,
  ChatCompletionChunk,
  ChatMessageBody,
  ConversationsQuery,
  DifyConversation,
  DifyConversationPage,
  DifyMessagePage,
  DifyMetadata,
  DifyParameters,
  DifyResult,
  DifyUploadedFile,
  FeedbackBody,
  MessagesQuery,
  OpenAiModelList,
  RenameBody,
  UserBody,
  WorkflowBlockingResponse,
  WorkflowRunBody,
  WorkflowRunData,
} from '../../../../../schemas/public-api';
import { buildEndpoints } from './api-docs';

/** What the server validates each documented request with, and answers (schemas/public-api.ts). */
const CONTRACT: Record<string, { request?: z.ZodType; response: z.ZodType }> = {
  chat: { request: ChatMessageBody, response: ChatBlockingResponse },
  chatStop: { request: UserBody, response: DifyResult },
  conversations: { request: ConversationsQuery, response: DifyConversationPage },
  rename: { request: RenameBody, response: DifyConversation },
  deleteConversation: { request: UserBody, response: DifyResult },
  messages: { request: MessagesQuery, response: DifyMessagePage },
  feedback: { request: FeedbackBody, response: DifyResult },
  completions: { request: ChatCompletionBody, response: ChatCompletion },
  models: { response: OpenAiModelList },
  run: { request: WorkflowRunBody, response: WorkflowBlockingResponse },
  runStop: { request: UserBody, response: DifyResult },
  upload: { response: DifyUploadedFile },
  parameters: { response: DifyParameters },
};

function documentWith(mode: FlowMode) {
  const doc = createEmptyFlow(mode);
  const variables = [
    { name: 'topic', label: 'Topic', type: 'text', required: true, options: [], allowed_extensions: [] },
    { name: 'tone', label: 'Tone', type: 'select', required: false, options: ['formal', 'casual'], allowed_extensions: [] },
    { name: 'files', label: 'Files', type: 'file-list', required: false, options: [], allowed_extensions: ['.pdf'] },
  ];
  return { ...doc, nodes: doc.nodes.map((n) => (n.kind === 'start' ? { ...n, config: { variables } } : n)), features: { ...defaultAppFeatures(), opening_statement: 'Hi', suggested_questions: ['a', 'b', 'c'], suggested_questions_random_count: 2 } };
}

/** Parsing strips keys a schema does not know: equal after parsing means no key too many, none missing. */
const exactly = (schema: z.ZodType, value: unknown) => expect(schema.parse(value)).toEqual(value);

describe('the documented examples follow the public API contract', () => {
  for (const mode of ['chatflow', 'agent', 'agent_team', 'workflow'] as const) {
    it(`${mode}: every request and JSON answer parses with the server's schemas`, () => {
      const docs = buildEndpoints('0a000000-0000-4000-8000-0000000000a1', mode, documentWith(mode));
      for (const e of docs) {
        const contract = CONTRACT[e.id];
        expect(contract, e.id).toBeDefined();
        if (contract.request) contract.request.parse(e.call.json ?? e.call.query);
        exactly(contract.response, JSON.parse(e.responses.find((r) => r.kind === 'json')!.text));
      }
    });
  }

  it('the streamed examples carry what the server streams', () => {
    const chat = buildEndpoints('a1', 'chatflow', documentWith('chatflow'));
    const frames = (id: string, docs = chat) =>
      docs
        .find((e) => e.id === id)!
        .responses.find((r) => r.kind === 'stream')!
        .text.split('\n')
        .filter((l) => l.startsWith('data: {'))
        .map((l) => JSON.parse(l.slice(6)));
    // Dify's frames carry their ids (a client resumes with Last-Event-ID); OpenAI's carry none.
    const ids = (id: string, docs = chat) => [...docs.find((e) => e.id === id)!.responses.find((r) => r.kind === 'stream')!.text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    const end = frames('chat').find((f) => f.event === 'message_end');
    exactly(DifyMetadata, end.metadata);
    expect(JSON.parse(chat.find((e) => e.id === 'chat')!.responses[0].text).mode).toBe('advanced-chat');
    for (const c of frames('completions')) exactly(ChatCompletionChunk, c);
    const workflow = buildEndpoints('a1', 'workflow', documentWith('workflow'));
    exactly(WorkflowRunData, frames('run', workflow).find((f) => f.event === 'workflow_finished').data);
    expect(frames('run', workflow).map((f) => f.event)).toEqual(['workflow_started', 'node_started', 'node_finished', 'workflow_finished']);
    expect(ids('run', workflow)).toEqual([1, 2, 3, 4]);
    expect(ids('chat')).toEqual(frames('chat').map((_, i) => i + 1));
    expect(ids('completions')).toEqual([]);
  });

  it('the parameters example shows what the served version offers', () => {
    const params = JSON.parse(buildEndpoints('a1', 'chatflow', documentWith('chatflow')).find((e) => e.id === 'parameters')!.responses[0].text);
    expect(params.opening_statement).toBe('Hi');
    // At most the random-display count of suggested questions.
    expect(params.suggested_questions).toEqual(['a', 'b']);
    expect(params.user_input_form.map((i: object) => Object.keys(i)[0])).toEqual(['text-input', 'select', 'file-list']);
    // A workflow has none of the chat features.
    const wf = JSON.parse(buildEndpoints('a1', 'workflow', documentWith('workflow')).find((e) => e.id === 'parameters')!.responses[0].text);
    expect(wf.opening_statement).toBe('');
  });
});
