/**
 * An in-memory {@link PortalApi} for stories and tests, with the server's rules as schemas/portal.ts
 * states them: apps a user may use, conversations pinned first then newest, messages newest first
 * paged by `before_id`, groups of the user, chat answers streamed in chunks (a markdown answer with a
 * code block, and a citation when the app shows them), workflow runs with their steps. An app in
 * `lostAccess` answers VALIDATION-1000 to opening and sending, and its conversations are not
 * `accessible` (still readable).
 *
 * @example
 * const api = createMemoryPortalApi({ apps: demoPortalApps(6) });
 * <PortalApiContext value={api}><DiscoverPage /></PortalApiContext>
 */
import type { ConversationGroup, PortalAppDetail, UsageRecord, WebConversation, WebMessage, WebRun } from '../../../schemas/portal';
import type { FlowMode } from '../../../schemas/flow';
import { defaultAppFeatures } from '../../../schemas/flow';
import type { PortalStreamEvent } from '../../api/portal-stream';
import { ApiError } from '../../api/request';
import { ICON_COLORS, ICON_NAMES } from '../../kit/widgets/icon-presets';
import type { PortalApi, WebPage } from './portal-api';

export interface MemoryPortalOptions {
  apps?: PortalAppDetail[];
  conversations?: WebConversation[];
  /** Messages per conversation id, oldest first. */
  messages?: Record<string, WebMessage[]>;
  groups?: ConversationGroup[];
  runs?: WebRun[];
  usage?: UsageRecord[];
  /** Ids of apps the user lost access to. */
  lostAccess?: string[];
  latencyMs?: number;
  /** Time between two chunks of a streamed answer. */
  chunkDelayMs?: number;
  /** The app list never answers / fails. */
  neverLoads?: boolean;
  listFails?: boolean;
  /** The answer text (default: a markdown answer quoting the question). */
  answer?: (query: string) => string;
}

export interface MemoryPortalApi extends PortalApi {
  apps: PortalAppDetail[];
  conversations: WebConversation[];
  messages: Record<string, WebMessage[]>;
  groups: ConversationGroup[];
  runs: WebRun[];
  lostAccess: Set<string>;
  calls: { method: string; args: unknown[] }[];
}

const T0 = Date.parse('2025-03-01T09:00:00Z');
let seq = 0;
/** A fresh UUID-shaped id (the schemas want UUIDs). */
export const memoryId = (prefix = 'b') => `${prefix.padEnd(8, '0').slice(0, 8)}-0000-4000-8000-${(++seq).toString(16).padStart(12, '0')}`;
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
const param = (msg: string) => new ApiError({ status: 400, code: 'VALIDATION-1000', msg });
const usage = (n: number) => ({ promptTokens: n, completionTokens: n * 2, totalTokens: n * 3 });

const DEMO: [string, FlowMode, string][] = [
  ['Support assistant', 'chatflow', 'Answers questions about our products from the help centre, and says when it is not sure'],
  ['Invoice extractor', 'workflow', 'Reads an invoice and returns its fields as JSON'],
  ['Writing coach', 'agent', 'Improves your drafts: clarity, tone and structure'],
  ['Research team', 'agent_team', 'A planner and two researchers who answer with sources'],
  ['Meeting summariser', 'workflow', 'Turns a transcript into decisions and action items'],
  ['HR policy helper', 'chatflow', 'Leave, expenses and travel rules, with the passage it used'],
];

/** `n` apps the user may use (all four modes, both platforms), with features set for the chat. */
export function demoPortalApps(n: number): PortalAppDetail[] {
  return Array.from({ length: n }, (_, i) => {
    const [name, mode, description] = DEMO[i % DEMO.length];
    const features = defaultAppFeatures();
    features.opening_statement = i % 2 === 0 ? `Hello! I am **${name}**. Ask me anything.` : '';
    features.suggested_questions = ['What can you do?', 'Summarise our refund policy', 'Write a short example in Python', 'Which plans exist?'];
    features.suggested_questions_random_count = 2;
    features.suggested_questions_after_answer = true;
    features.file_upload = { enabled: i % 2 === 0, types: ['image', 'document'], max_count: 3, image_detail: 'low' };
    return {
      id: memoryId('a'),
      name: i < DEMO.length ? name : `${name} ${Math.floor(i / DEMO.length) + 1}`,
      description,
      icon: { icon: ICON_NAMES[i % ICON_NAMES.length], iconColor: ICON_COLORS[i % ICON_COLORS.length].background },
      mode,
      platform: i % 3 === 2 ? 'current_project' : 'portal',
      workspace_id: memoryId('c'),
      workspace_name: 'Customer care',
      version: `1.${i % 4}.0`,
      distributed_at: at(i),
      features,
      inputs:
        mode === 'workflow'
          ? [
              { name: 'text', label: 'Text', type: 'paragraph', required: true, options: [], max_length: 2000, allowed_extensions: [] },
              { name: 'language', label: 'Language', type: 'select', required: false, options: ['English', 'Chinese'], max_length: null, allowed_extensions: [] },
              { name: 'pages', label: 'Pages', type: 'number', required: false, options: [], max_length: null, allowed_extensions: [] },
            ]
          : [],
      conversation_variables: [],
    };
  });
}

const defaultAnswer = (query: string) =>
  `You asked: *${query}*.\n\nHere is an example:\n\n\`\`\`python\ndef greet(name):\n    return f"Hello, {name}!"\n\`\`\`\n\n- It takes a **name**\n- It returns a greeting`;

/** A message as the server stores it. */
export function memoryMessage(conversation_id: string, query: string, answer: string, minutes = 0, extra: Partial<WebMessage> = {}): WebMessage {
  return { id: memoryId('d'), conversation_id, query, answer, files: [], status: 'succeeded', error: null, citations: [], feedback: null, usage: usage(10), elapsed_ms: 900, created_at: at(minutes), ...extra };
}

/** A conversation of `app` as the server lists it. */
export function memoryConversation(app: PortalAppDetail, name: string, extra: Partial<WebConversation> = {}): WebConversation {
  return {
    id: memoryId('e'),
    app_id: app.id,
    app_name: app.name,
    app_icon: app.icon,
    app_mode: app.mode,
    name,
    pinned: false,
    group_id: null,
    persona: '',
    accessible: true,
    message_count: 0,
    last_message_at: null,
    created_at: at(0),
    updated_at: at(0),
    ...extra,
  };
}

export function createMemoryPortalApi(options: MemoryPortalOptions = {}): MemoryPortalApi {
  const latency = options.latencyMs ?? 0;
  const chunkDelay = options.chunkDelayMs ?? 20;
  const answerOf = options.answer ?? defaultAnswer;
  const api: MemoryPortalApi = {
    apps: options.apps ?? demoPortalApps(6),
    conversations: options.conversations ?? [],
    messages: options.messages ?? {},
    groups: options.groups ?? [],
    runs: options.runs ?? [],
    lostAccess: new Set(options.lostAccess ?? []),
    calls: [] as MemoryPortalApi['calls'],
  } as unknown as MemoryPortalApi;
  const log = (method: string, ...args: unknown[]) => api.calls.push({ method, args });
  /** Runs asked to stop (their stream ends with a stopped run, as the server's does). */
  const stoppedRuns = new Set<string>();
  const pause = () => (latency ? wait(latency) : Promise.resolve());
  const usable = (id: string) => {
    const app = api.apps.find((a) => a.id === id);
    if (!app || api.lostAccess.has(id)) throw param('App does not exist');
    return app;
  };
  const conversationOf = (id: string) => {
    const c = api.conversations.find((x) => x.id === id);
    if (!c) throw param('Conversation does not exist');
    return { ...c, accessible: !api.lostAccess.has(c.app_id) };
  };
  const page = <T>(items: T[], p = 1, size = 20): WebPage<T> => ({ list: items.slice((p - 1) * size, p * size), total: items.length, page: p, page_size: size });
  const ordered = () => [...api.conversations].sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.updated_at.localeCompare(a.updated_at));
  const groupCounts = () => api.groups.map((g) => ({ ...g, conversation_count: api.conversations.filter((c) => c.group_id === g.id).length }));

  Object.assign(api, {
    async listApps(q) {
      log('listApps', q);
      if (options.neverLoads) return new Promise(() => {});
      await pause();
      if (options.listFails) throw new ApiError({ status: 500, code: 'SYSTEM-1500', msg: 'Server error' });
      const k = q.keyword?.toLowerCase() ?? '';
      const items = api.apps.filter((a) => !api.lostAccess.has(a.id) && (!q.mode || a.mode === q.mode) && (!k || `${a.name} ${a.description}`.toLowerCase().includes(k)));
      return page(items, q.page, q.page_size ?? 100);
    },
    async getApp(id) {
      log('getApp', id);
      await pause();
      return usable(id);
    },
    async *chat(appId, body, signal) {
      log('chat', appId, body);
      await pause();
      const app = usable(appId);
      let conversation = body.conversation_id ? api.conversations.find((c) => c.id === body.conversation_id) : undefined;
      if (!conversation) {
        conversation = memoryConversation(app, body.query.slice(0, 40), { created_at: new Date().toISOString() });
        api.conversations.push(conversation);
      }
      const list = (api.messages[conversation.id] ??= []);
      if (body.regenerate_message_id) list.splice(list.findIndex((m) => m.id === body.regenerate_message_id), 1);
      const message = memoryMessage(conversation.id, body.query, '', 0, { created_at: new Date().toISOString(), files: body.files ?? [] });
      const runId = memoryId('f');
      yield { type: 'run_created', runId, conversationId: conversation.id, messageId: message.id };
      const text = answerOf(body.query);
      let stopped = false;
      let n = 1;
      for (let i = 0; i < text.length; i += 12) {
        try {
          await wait(chunkDelay, signal);
        } catch {
          stopped = true;
          break;
        }
        if (stoppedRuns.has(runId)) {
          stopped = true;
          yield { type: 'run_failed', runId, seq: n++, at: Date.now(), status: 'stopped', elapsedMs: 1, error: { code: 'RUN_STOPPED', message: 'Stopped' }, outputs: {}, answer: message.answer, usage: usage(1), steps: 1 };
          break;
        }
        message.answer += text.slice(i, i + 12);
        yield { type: 'answer_chunk', runId, seq: n++, at: Date.now(), nodeId: 'answer', text: text.slice(i, i + 12) };
      }
      message.status = stopped ? 'stopped' : 'succeeded';
      if (app.features.citations && !stopped) {
        message.citations = [{ dataset_id: 'ds', dataset_name: 'Help centre', document_id: 'doc', document_name: 'refunds.md', segment_id: 'seg', content: 'Refunds are made within 14 days of the request, to the card used for the payment.', score: 0.82 }];
      }
      list.push(message);
      Object.assign(conversation, { message_count: list.length, last_message_at: message.created_at, updated_at: message.created_at });
      yield { type: 'message_end', messageId: message.id, conversationId: conversation.id, citations: message.citations, usage: message.usage } satisfies PortalStreamEvent;
    },
    async *workflow(appId, body, signal) {
      log('workflow', appId, body);
      await pause();
      usable(appId);
      const runId = memoryId('f');
      const steps = [
        ['start', 'Start', 'start'],
        ['llm', 'Extract the fields', 'llm'],
        ['end', 'End', 'end'],
      ] as const;
      const run: WebRun = { id: runId, app_id: appId, status: 'running', inputs: body.inputs, outputs: {}, error: null, elapsed_ms: 0, usage: usage(20), created_at: new Date().toISOString(), finished_at: null, steps: [] };
      yield { type: 'run_created', runId };
      let n = 0;
      const base = () => ({ runId, seq: n++, at: Date.now() });
      yield { type: 'run_started', ...base(), mode: 'workflow', inputs: body.inputs };
      for (const [nodeId, title, kind] of steps) {
        const node = { executionId: `${nodeId}-1`, nodeId, kind, title, scope: [] };
        yield { type: 'node_started', ...base(), ...node, inputs: {} };
        await wait(chunkDelay * 3, signal);
        yield { type: 'node_finished', ...base(), ...node, status: 'succeeded', elapsedMs: chunkDelay * 3, inputs: {}, outputs: {}, handle: 'source', retries: 0 };
        run.steps.push({ node_id: nodeId, title, kind, status: 'succeeded', elapsed_ms: chunkDelay * 3 });
      }
      run.outputs = { summary: `**Done.** Read ${String(body.inputs.text ?? '').length} characters.`, fields: { total: 42.5, currency: 'EUR' } };
      Object.assign(run, { status: 'succeeded', elapsed_ms: chunkDelay * 9, finished_at: new Date().toISOString() });
      api.runs.unshift(run);
      yield { type: 'run_finished', ...base(), elapsedMs: run.elapsed_ms, outputs: run.outputs, answer: '', usage: run.usage, steps: steps.length };
    },
    async stop(appId, runId) {
      log('stop', appId, runId);
      stoppedRuns.add(runId);
      return { stopped: true };
    },
    async listRuns(appId, q) {
      await pause();
      return page(api.runs.filter((r) => r.app_id === appId), q.page, q.page_size);
    },
    async getRun(_appId, runId) {
      await pause();
      const run = api.runs.find((r) => r.id === runId);
      if (!run) throw param('Run does not exist');
      return run;
    },
    async listConversations(q) {
      log('listConversations', q);
      await pause();
      const k = q.keyword?.toLowerCase() ?? '';
      const items = ordered()
        .filter((c) => (!q.app_id || c.app_id === q.app_id) && (!q.group_id || c.group_id === q.group_id) && (!k || c.name.toLowerCase().includes(k)))
        .map((c) => ({ ...c, accessible: !api.lostAccess.has(c.app_id) }));
      return page(items, q.page, q.page_size ?? 50);
    },
    async getConversation(id) {
      await pause();
      return conversationOf(id);
    },
    async updateConversation(id, body) {
      log('updateConversation', id, body);
      await pause();
      const c = api.conversations.find((x) => x.id === id);
      if (!c) throw param('Conversation does not exist');
      Object.assign(c, body, { updated_at: new Date().toISOString() });
      return conversationOf(id);
    },
    async deleteConversation(id) {
      log('deleteConversation', id);
      await pause();
      api.conversations = api.conversations.filter((c) => c.id !== id);
      delete api.messages[id];
      return null;
    },
    async listMessages(id, q) {
      await pause();
      conversationOf(id);
      const all = [...(api.messages[id] ?? [])].reverse();
      const from = q.before_id ? all.findIndex((m) => m.id === q.before_id) + 1 : 0;
      const limit = q.limit ?? 20;
      return { list: all.slice(from, from + limit), has_more: from + limit < all.length };
    },
    async feedback(id, rating) {
      log('feedback', id, rating);
      for (const list of Object.values(api.messages)) for (const m of list) if (m.id === id) m.feedback = rating;
      return null;
    },
    async suggested(id) {
      log('suggested', id);
      await pause();
      return ['Can you give another example?', 'How would this look in TypeScript?'];
    },
    async listGroups() {
      await pause();
      return groupCounts();
    },
    async createGroup(name) {
      log('createGroup', name);
      await pause();
      if (api.groups.some((g) => g.name === name)) throw new ApiError({ status: 400, code: 'VALIDATION-1001', msg: 'The name already exists' });
      const group = { id: memoryId('9'), name, conversation_count: 0, created_at: new Date().toISOString() };
      api.groups.push(group);
      return group;
    },
    async renameGroup(id, name) {
      log('renameGroup', id, name);
      await pause();
      const g = api.groups.find((x) => x.id === id);
      if (!g) throw param('Group does not exist');
      g.name = name;
      return groupCounts().find((x) => x.id === id)!;
    },
    async deleteGroup(id) {
      log('deleteGroup', id);
      await pause();
      api.groups = api.groups.filter((g) => g.id !== id);
      for (const c of api.conversations) if (c.group_id === id) c.group_id = null;
      return null;
    },
    async listUsage(q) {
      await pause();
      return page(options.usage ?? [], q.page, q.page_size ?? 10);
    },
    async upload(file) {
      log('upload', file.name);
      await pause();
      return { id: memoryId('7'), name: file.name, size: file.size, mime_type: file.type || 'application/octet-stream' };
    },
  } satisfies PortalApi);
  return api;
}
