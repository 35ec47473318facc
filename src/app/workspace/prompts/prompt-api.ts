/**
 * What the prompt screens need from the server, behind a context so stories and tests can pass an
 * in-memory implementation (memory-prompt-api.ts). The default is the real API (src/api).
 */
import { createContext, useContext } from 'react';
import type { AvailableProvider } from '../../../../schemas/model';
import type { Prompt, PromptCreateBody, PromptScene, PromptUpdateBody, TemplateType } from '../../../../schemas/prompt';
import type { GenerateQuestionBody, OptimizePromptBody, PromptDebugBody, PromptDebugEvent } from '../../../../schemas/prompt-debug';
import type { Workspace } from '../../../../schemas/workspace';
import { availableModels } from '../../../api/models';
import {
  createPrompt,
  deletePrompt,
  generatePromptQuestions,
  getPrompt,
  listPrompts,
  optimizePrompt,
  parsePromptVariables,
  stopPromptDebug,
  streamPromptDebug,
  updatePrompt,
} from '../../../api/prompts';
import { getWorkspace } from '../../../api/workspaces';
import type { PagedAnswer } from '../../../kit/schema-table';

export interface PromptQuery {
  page: number;
  page_size: number;
  name?: string;
  scene?: PromptScene | '';
}

export interface PromptApi {
  getWorkspace(workspaceId: string): Promise<Workspace>;
  list(workspaceId: string, q: PromptQuery): Promise<PagedAnswer<Prompt>>;
  get(workspaceId: string, id: string): Promise<Prompt>;
  create(workspaceId: string, body: PromptCreateBody): Promise<Prompt>;
  update(workspaceId: string, body: PromptUpdateBody): Promise<Prompt>;
  remove(workspaceId: string, id: string): Promise<unknown>;
  /** Variable names of a template; an invalid one rejects with VALIDATION-1000 and a TemplateIssue in `data`. */
  parseVariables(workspaceId: string, templateType: TemplateType, content: string): Promise<string[]>;
  /** Enabled LLMs of the tenant, by provider (the debug panel's model picker). */
  availableModels(): Promise<AvailableProvider[]>;
  /** A debug run: message_created, text_chunk…, then message_end or error. Rejects before the stream on bad input. */
  debug(workspaceId: string, body: PromptDebugBody, signal?: AbortSignal): AsyncIterable<PromptDebugEvent>;
  stopDebug(workspaceId: string, messageId: string): Promise<{ stopped: boolean }>;
  /** The rewrite (placeholders kept); a rewrite that loses one rejects with VALIDATION-1000. */
  optimize(workspaceId: string, body: OptimizePromptBody): Promise<string>;
  generateQuestions(workspaceId: string, body: GenerateQuestionBody): Promise<string[]>;
}

export const apiPromptApi: PromptApi = {
  getWorkspace: (id) => getWorkspace(id),
  list: (workspaceId, q) => listPrompts({ ...q, name: q.name || undefined, scene: q.scene || undefined }, { workspaceId }),
  get: (workspaceId, id) => getPrompt(id, { workspaceId, reaction: 'page' }),
  create: (workspaceId, body) => createPrompt(body, { workspaceId, reaction: 'silent' }),
  update: (workspaceId, body) => updatePrompt(body, { workspaceId, reaction: 'silent' }),
  remove: (workspaceId, id) => deletePrompt(id, { workspaceId }),
  parseVariables: (workspaceId, type, content) => parsePromptVariables(type, content, { workspaceId, reaction: 'silent' }).then((r) => r.variables),
  availableModels: () => availableModels('llm', { reaction: 'silent' }),
  debug: (workspaceId, body, signal) => streamPromptDebug(body, { workspaceId, signal, reaction: 'silent' }),
  stopDebug: (workspaceId, id) => stopPromptDebug(id, { workspaceId, reaction: 'silent' }),
  optimize: (workspaceId, body) => optimizePrompt(body, { workspaceId, reaction: 'silent' }).then((r) => r.content),
  generateQuestions: (workspaceId, body) => generatePromptQuestions(body, { workspaceId, reaction: 'silent' }).then((r) => r.questions),
};

export const PromptApiContext = createContext<PromptApi>(apiPromptApi);
export const usePromptApi = () => useContext(PromptApiContext);
