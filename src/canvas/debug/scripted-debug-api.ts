import type { DraftChatBody, DraftWorkflowBody, RunStreamEvent } from '../../api/runs';
import type { DebugApi } from './debug-api';
import { chatRunEvents, eventScript, iterationRunEvents, type ChatRunIds, type IterationRunIds } from './events.fixture';
import type { RunFormFile } from './start-fields';

/**
 * A {@link DebugApi} that plays scripted event streams with a delay between events (stories, tests):
 * a chat turn streams its reply word by word, a workflow runs an iteration. Stop ends the stream with
 * a stopped run, as the server does.
 */
export interface ScriptedDebugApi extends DebugApi {
  calls: { method: string; args: unknown[] }[];
  variables: Record<string, Record<string, unknown>>;
}

export interface ScriptedOptions {
  /** Delay between events (ms). */
  delayMs?: number;
  /** The reply of each chat turn; default echoes the question. */
  reply?: (query: string, turn: number) => string;
  /** The node ids of the flow the chat runs go through (default start, llm, answer). */
  chatIds?: ChatRunIds;
  /** The node ids of the workflow's iteration run (default start, iteration, code, http, end). */
  workflowIds?: IterationRunIds;
  /** Every run fails at its model node. */
  failing?: boolean;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), reject(new DOMException('aborted', 'AbortError'))), { once: true });
  });

export function createScriptedDebugApi(opts: ScriptedOptions = {}): ScriptedDebugApi {
  const delay = opts.delayMs ?? 120;
  const calls: ScriptedDebugApi['calls'] = [];
  const variables: ScriptedDebugApi['variables'] = {};
  const stopped = new Set<string>();
  let turn = 0;
  let runs = 0;

  async function* play(events: RunStreamEvent[], signal: AbortSignal): AsyncGenerator<RunStreamEvent> {
    const runId = events[0]?.runId ?? 'run';
    for (const e of events) {
      if (stopped.has(runId)) {
        const s = eventScript(runId);
        yield s.runFailed('stopped', 'Stopped by the user');
        return;
      }
      yield e;
      await sleep(e.type === 'answer_chunk' || e.type === 'node_chunk' ? delay / 2 : delay, signal);
    }
  }

  function failingRun(runId: string, conversationId?: string): RunStreamEvent[] {
    const s = eventScript(runId);
    const ids = opts.chatIds ?? { start: 'start', llm: 'llm', answer: 'answer' };
    return [
      s.created(conversationId),
      s.runStarted('chatflow'),
      s.started(ids.start, 'start'),
      s.finished(ids.start, 'start', {}),
      s.started(ids.llm, 'llm'),
      s.failed(ids.llm, 'llm', 'The model provider answered 401: invalid API key'),
      s.runFailed('failed', 'The model provider answered 401: invalid API key'),
    ];
  }

  return {
    calls,
    variables,
    chat(body: DraftChatBody, signal) {
      calls.push({ method: 'chat', args: [body] });
      const runId = `run-${++runs}`;
      const conversationId = body.conversation_id ?? 'c0000000-0000-4000-8000-00000000000a';
      variables[conversationId] ??= { topic: 'weather', turns: 0 };
      variables[conversationId].turns = Number(variables[conversationId].turns ?? 0) + 1;
      const reply = opts.reply?.(body.query, ++turn) ?? `You said: ${body.query}. Here is a longer reply, streamed a word at a time.`;
      const words = reply.split(/(?<= )/);
      return play(opts.failing ? failingRun(runId, conversationId) : chatRunEvents(runId, conversationId, words, opts.chatIds), signal);
    },
    workflow(body: DraftWorkflowBody, signal) {
      calls.push({ method: 'workflow', args: [body] });
      const runId = `run-${++runs}`;
      return play(opts.failing ? failingRun(runId) : iterationRunEvents(runId, opts.workflowIds), signal);
    },
    async stop(runId) {
      calls.push({ method: 'stop', args: [runId] });
      stopped.add(runId);
      return { stopped: true };
    },
    async getVariables(id) {
      calls.push({ method: 'getVariables', args: [id] });
      return { ...(variables[id] ?? {}) };
    },
    async setVariables(id, vars) {
      calls.push({ method: 'setVariables', args: [id, vars] });
      variables[id] = { ...vars };
      return null;
    },
    async upload(file: File, { signal }): Promise<RunFormFile> {
      calls.push({ method: 'upload', args: [file.name] });
      await sleep(delay, signal);
      return { id: `file-${calls.length}`, name: file.name, size: file.size, mime_type: file.type };
    },
  };
}
