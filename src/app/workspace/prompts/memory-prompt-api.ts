/**
 * An in-memory {@link PromptApi} for stories and tests: owner and admin change; variables are
 * parsed like the server does for plain templates (f-string `{name}`, jinja2 `{{ name }}`), and an
 * unclosed brace is a template error with its position.
 */
import type { AvailableProvider } from '../../../../schemas/model';
import type { Prompt, TemplateType } from '../../../../schemas/prompt';
import type { PromptDebugEvent } from '../../../../schemas/prompt-debug';
import type { MemberRole, Workspace } from '../../../../schemas/workspace';
import { ApiError } from '../../../api/request';
import type { PromptApi } from './prompt-api';

export interface MemoryPromptOptions {
  role?: MemberRole;
  seed?: Partial<Prompt>[];
  latencyMs?: number;
  listFails?: boolean;
  /** Enabled LLMs (default: one OpenAI model). */
  models?: AvailableProvider[];
  /** The chunks a debug run streams, `debugDelayMs` apart (default 'Hello', ', ', 'world'). */
  debugChunks?: string[];
  debugDelayMs?: number;
  /** The rewrite optimize answers (default the content with a preface); a function may throw. */
  optimize?: (content: string) => string;
  questions?: string[];
}

export interface MemoryPromptApi extends PromptApi {
  workspaceId: string;
  stored: Prompt[];
  calls: { method: string; args: unknown[] }[];
}

const WS = '0c000000-0000-4000-8000-0000000000e1';
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const noModel = () => new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'No model is configured' });
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

/** Fills `{name}` (f-string) or `{{ name }}` (jinja2) placeholders with the values. */
export function renderTemplate(type: TemplateType, content: string, values: Record<string, string>): string {
  if (type === 'jinja2') return content.replace(/\{\{\s*([\p{L}_][\p{L}\p{N}_]*)\s*\}\}/gu, (_, n: string) => values[n] ?? '');
  return content.replace(/\{\{|\}\}|\{([\p{L}_][\p{L}\p{N}_]*)\}/gu, (m, n?: string) => (n ? (values[n] ?? '') : m[0]));
}

const OPENAI: AvailableProvider[] = [
  { provider: 'openai', label: 'OpenAI', models: [{ model: 'gpt-4o-mini', label: 'GPT-4o mini', model_type: 'llm' } as AvailableProvider['models'][number]] },
];

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
  const running = new Map<string, AbortController>();
  let messages = 0;
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
    async availableModels() {
      await step('availableModels', []);
      return opts.models ?? OPENAI;
    },
    debug(_ws, body, signal) {
      const chunks = opts.debugChunks ?? ['Hello', ', ', 'world'];
      const delay = opts.debugDelayMs ?? 0;
      return (async function* (): AsyncGenerator<PromptDebugEvent> {
        await step('debug', [body]);
        const type = body.template_type ?? 'f-string';
        const values = body.variables ?? {};
        const missing = parseTemplate(type, body.content).filter((n) => !(n in values));
        if (missing.length) {
          throw new ApiError({
            status: 400,
            code: 'VALIDATION-1000',
            msg: `Values are missing for the variables: ${missing.join(', ')}`,
            data: missing.map((n) => ({ path: `body/variables/${n}`, message: 'This form field is required!' })),
          });
        }
        if (!body.model) throw noModel();
        const message_id = `m${++messages}`;
        const controller = new AbortController();
        running.set(message_id, controller);
        const rendered = renderTemplate(type, body.content, values);
        yield { type: 'message_created', message_id, rendered_prompt: rendered, model: { provider: body.model.provider, name: body.model.name } };
        let answer = '';
        for (const text of chunks) {
          if (delay) await wait(delay);
          if (controller.signal.aborted || signal?.aborted) break;
          answer += text;
          yield { type: 'text_chunk', message_id, text };
        }
        running.delete(message_id);
        const stopped = controller.signal.aborted;
        yield {
          type: 'message_end',
          message_id,
          status: stopped ? 'stopped' : 'succeeded',
          answer,
          usage: { prompt_tokens: rendered.length, completion_tokens: answer.length, total_tokens: rendered.length + answer.length },
          elapsed_ms: 1,
        };
      })();
    },
    async stopDebug(_ws, id) {
      await step('stopDebug', [id]);
      const c = running.get(id);
      c?.abort();
      return { stopped: !!c };
    },
    async optimize(_ws, body) {
      await step('optimize', [body]);
      if (!body.model) throw noModel();
      return opts.optimize ? opts.optimize(body.content) : `You are precise. ${body.content}`;
    },
    async generateQuestions(_ws, body) {
      await step('generateQuestions', [body]);
      if (!body.model) throw noModel();
      return (opts.questions ?? ['What is Weft?', 'How do I start?', 'Who can help?']).slice(0, body.count ?? 3);
    },
  };
}
