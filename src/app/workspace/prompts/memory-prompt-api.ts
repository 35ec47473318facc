/**
 * An in-memory {@link PromptApi} for stories and tests: owner and admin change; variables are
 * parsed like the server does for plain templates (f-string `{name}`, jinja2 `{{ name }}`), and an
 * unclosed brace is a template error with its position.
 */
import type { Prompt, TemplateType } from '../../../../schemas/prompt';
import type { MemberRole, Workspace } from '../../../../schemas/workspace';
import { ApiError } from '../../../api/request';
import type { PromptApi } from './prompt-api';

export interface MemoryPromptOptions {
  role?: MemberRole;
  seed?: Partial<Prompt>[];
  latencyMs?: number;
  listFails?: boolean;
}

export interface MemoryPromptApi extends PromptApi {
  workspaceId: string;
  stored: Prompt[];
  calls: { method: string; args: unknown[] }[];
}

const WS = '0c000000-0000-4000-8000-0000000000e1';
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const denied = () => new ApiError({ status: 403, code: 'PERMISSION-1000', msg: 'Permission denied' });

/** The variable names of a template (a small stand-in for the server's parsers). */
export function parseTemplate(type: TemplateType, content: string): string[] {
  const open = type === 'jinja2' ? '{{' : '{';
  const close = type === 'jinja2' ? '}}' : '}';
  const names: string[] = [];
  let i = 0;
  while (i < content.length) {
    if (type === 'f-string' && (content.startsWith('{{', i) || content.startsWith('}}', i))) {
      i += 2;
      continue;
    }
    if (content.startsWith(open, i)) {
      const end = content.indexOf(close, i + open.length);
      if (end < 0) {
        const before = content.slice(0, i);
        const line = before.split('\n').length;
        const column = i - before.lastIndexOf('\n');
        throw new ApiError({
          status: 400,
          code: 'VALIDATION-1000',
          msg: 'Unclosed placeholder',
          data: [{ path: 'content', message: 'Unclosed placeholder', line, column, offset: i }],
        });
      }
      const name = content.slice(i + open.length, end).trim();
      if (name && !names.includes(name)) names.push(name);
      i = end + close.length;
      continue;
    }
    i++;
  }
  return names;
}

export function createMemoryPromptApi(opts: MemoryPromptOptions = {}): MemoryPromptApi {
  const role = opts.role ?? 'owner';
  const calls: MemoryPromptApi['calls'] = [];
  let n = 0;
  const now = () => new Date(Date.parse('2025-05-01T08:00:00Z') + n * 3_600_000).toISOString();
  const newId = () => `0a000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`;
  const base = (p: Partial<Prompt>): Prompt => ({
    id: newId(),
    workspace_id: WS,
    name: 'prompt',
    description: '',
    tags: [],
    content: 'Hello {name}',
    template_type: 'f-string',
    scene: 'llm_chain',
    variables: [],
    model: null,
    created_by: WS,
    created_at: now(),
    updated_at: now(),
    ...p,
  });
  const stored: Prompt[] = (opts.seed ?? []).map(base);
  const canChange = role === 'owner' || role === 'admin';
  const step = async (method: string, args: unknown[]) => {
    calls.push({ method, args });
    await wait(opts.latencyMs ?? 0);
  };
  const find = (id: string) => {
    const p = stored.find((x) => x.id === id);
    if (!p) throw new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'Parameter error' });
    return p;
  };
  const withVariables = (p: Prompt, given: Prompt['variables'] | undefined) =>
    given ?? parseTemplate(p.template_type, p.content).map((name) => p.variables.find((v) => v.name === name) ?? { name, description: '', default: '' });
  return {
    workspaceId: WS,
    stored,
    calls,
    async getWorkspace(id) {
      await step('getWorkspace', [id]);
      return { id, name: 'Demo space', description: '', icon: null, role_type: role, created_at: now(), updated_at: now() } as unknown as Workspace;
    },
    async list(_ws, q) {
      await step('list', [q]);
      if (opts.listFails) throw new ApiError({ status: 500, code: 'SYSTEM-1000', msg: 'Server error' });
      const rows = stored.filter((p) => p.name.toLowerCase().includes((q.name ?? '').toLowerCase()) && (!q.scene || p.scene === q.scene)).reverse();
      return { items: rows.slice((q.page - 1) * q.page_size, q.page * q.page_size), total: rows.length };
    },
    async get(_ws, id) {
      await step('get', [id]);
      return find(id);
    },
    async create(_ws, body) {
      await step('create', [body]);
      if (!canChange) throw denied();
      const { id: _id, variables, model, ...rest } = body;
      const p = base({ ...(rest as Partial<Prompt>), model: model ?? null });
      p.variables = withVariables(p, variables as Prompt['variables'] | undefined);
      stored.push(p);
      return p;
    },
    async update(_ws, body) {
      await step('update', [body]);
      if (!canChange) throw denied();
      const p = find(String(body.id));
      const { id: _id, variables, ...rest } = body;
      Object.assign(p, rest, { updated_at: now() });
      p.variables = withVariables(p, variables as Prompt['variables'] | undefined);
      return p;
    },
    async remove(_ws, id) {
      await step('remove', [id]);
      if (!canChange) throw denied();
      stored.splice(stored.indexOf(find(id)), 1);
      return null;
    },
    async parseVariables(_ws, type, content) {
      await step('parseVariables', [type, content]);
      return parseTemplate(type, content);
    },
  };
}
