/**
 * What the prompt screens need from the server, behind a context so stories and tests can pass an
 * in-memory implementation (memory-prompt-api.ts). The default is the real API (src/api).
 */
import { createContext, useContext } from 'react';
import type { Prompt, PromptCreateBody, PromptScene, PromptUpdateBody, TemplateType } from '../../../../schemas/prompt';
import type { Workspace } from '../../../../schemas/workspace';
import { createPrompt, deletePrompt, getPrompt, listPrompts, parsePromptVariables, updatePrompt } from '../../../api/prompts';
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
}

export const apiPromptApi: PromptApi = {
  getWorkspace: (id) => getWorkspace(id),
  list: (workspaceId, q) => listPrompts({ ...q, name: q.name || undefined, scene: q.scene || undefined }, { workspaceId }),
  get: (workspaceId, id) => getPrompt(id, { workspaceId, reaction: 'page' }),
  create: (workspaceId, body) => createPrompt(body, { workspaceId, reaction: 'silent' }),
  update: (workspaceId, body) => updatePrompt(body, { workspaceId, reaction: 'silent' }),
  remove: (workspaceId, id) => deletePrompt(id, { workspaceId }),
  parseVariables: (workspaceId, type, content) => parsePromptVariables(type, content, { workspaceId, reaction: 'silent' }).then((r) => r.variables),
};

export const PromptApiContext = createContext<PromptApi>(apiPromptApi);
export const usePromptApi = () => useContext(PromptApiContext);
