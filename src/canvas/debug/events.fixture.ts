import type { RunEvent, RunScopeFrame, TokenUsage } from '../../../schemas/run';
import type { RunCreated } from './trace';

/**
 * Builders of run events for tests and stories: a scripted run reads like the engine's output
 * without repeating every field.
 */

type Ev = RunEvent | RunCreated;

export function eventScript(runId = 'run-1') {
  let seq = 0;
  let at = 1_000;
  const base = () => ({ runId, seq: seq++, at: (at += 5) });
  const usage = (total: number): TokenUsage => ({ promptTokens: Math.floor(total / 2), completionTokens: total - Math.floor(total / 2), totalTokens: total });
  const node = (nodeId: string, kind: string, scope: RunScopeFrame[] = [], executionId = `${nodeId}${scope.map((f) => `#${f.index}`).join('')}`) => ({
    executionId,
    nodeId,
    kind,
    title: nodeId.toUpperCase(),
    scope,
    ...(scope.length ? { parentId: scope[scope.length - 1].containerId } : {}),
  });
  return {
    usage,
    created: (conversationId?: string): Ev => ({ type: 'run_created', runId, ...(conversationId ? { conversationId, messageId: `m-${runId}` } : {}) }),
    runStarted: (mode: 'chatflow' | 'workflow' = 'chatflow', inputs: Record<string, unknown> = {}): Ev => ({ type: 'run_started', ...base(), mode, inputs }),
    started: (nodeId: string, kind: string, scope: RunScopeFrame[] = [], inputs: Record<string, unknown> = {}): Ev => ({ type: 'node_started', ...base(), ...node(nodeId, kind, scope), inputs }),
    chunk: (nodeId: string, kind: string, text: string, scope: RunScopeFrame[] = []): Ev => ({ type: 'node_chunk', ...base(), ...node(nodeId, kind, scope), text }),
    finished: (nodeId: string, kind: string, outputs: Record<string, unknown>, opts: { scope?: RunScopeFrame[]; elapsedMs?: number; tokens?: number; exception?: boolean; handle?: string } = {}): Ev => ({
      type: 'node_finished',
      ...base(),
      ...node(nodeId, kind, opts.scope),
      status: opts.exception ? 'exception' : 'succeeded',
      elapsedMs: opts.elapsedMs ?? 12,
      inputs: {},
      outputs,
      handle: opts.handle ?? 'source',
      ...(opts.tokens ? { usage: usage(opts.tokens) } : {}),
      retries: 0,
      ...(opts.exception ? { error: { code: 'HTTP-TIMEOUT', message: 'Timed out' } } : {}),
    }),
    failed: (nodeId: string, kind: string, message: string, scope: RunScopeFrame[] = [], status: 'failed' | 'stopped' = 'failed'): Ev => ({
      type: 'node_failed',
      ...base(),
      ...node(nodeId, kind, scope),
      status,
      elapsedMs: 30,
      inputs: {},
      error: { code: status === 'stopped' ? 'CANCELLED' : 'NODE-FAILED', message },
      retries: 0,
    }),
    /** The node waits for a free sandbox with `ahead` before it; null: the wait ended after `waitedMs`. */
    waiting: (nodeId: string, kind: string, ahead: number | null, waitedMs = 1500): Ev => ({
      type: 'node_waiting',
      ...base(),
      ...node(nodeId, kind),
      reason: 'sandbox',
      waiting: ahead !== null,
      ahead: ahead ?? 0,
      ...(ahead === null ? { waitedMs } : {}),
    }),
    skipped: (nodeId: string, kind: string, scope: RunScopeFrame[] = []): Ev => ({ type: 'node_skipped', ...base(), nodeId, kind, scope }),
    answer: (text: string, nodeId = 'answer'): Ev => ({ type: 'answer_chunk', ...base(), nodeId, text }),
    iterationStarted: (nodeId: string, total: number): Ev => ({ type: 'iteration_started', ...base(), ...node(nodeId, 'iteration'), total, parallelism: 1 }),
    iterationNext: (nodeId: string, index: number): Ev => ({ type: 'iteration_next', ...base(), ...node(nodeId, 'iteration'), index }),
    loopStarted: (nodeId: string, maxCount: number): Ev => ({ type: 'loop_started', ...base(), ...node(nodeId, 'loop'), maxCount }),
    loopNext: (nodeId: string, index: number, variables: Record<string, unknown>): Ev => ({ type: 'loop_next', ...base(), ...node(nodeId, 'loop'), index, variables }),
    /** The scope of round `index` of container `containerId` (its execution id is the container's id). */
    inRound: (containerId: string, index: number): RunScopeFrame[] => [{ containerId, executionId: containerId, index }],
    runFinished: (answer: string, outputs: Record<string, unknown> = {}, tokens = 0): Ev => ({
      type: 'run_finished',
      ...base(),
      elapsedMs: at - 1_000,
      outputs,
      answer,
      usage: usage(tokens),
      steps: seq,
    }),
    runFailed: (status: 'failed' | 'stopped', message: string): Ev => ({
      type: 'run_failed',
      ...base(),
      status,
      elapsedMs: at - 1_000,
      error: { code: status === 'stopped' ? 'CANCELLED' : 'NODE-FAILED', message },
      outputs: {},
      answer: '',
      usage: usage(0),
      steps: seq,
    }),
  };
}

/** Node ids a scripted chat run goes through. */
export interface ChatRunIds {
  start: string;
  llm: string;
  answer: string;
}

/** A chatflow run: start → llm (streams) → answer, the reply in the given pieces. */
export function chatRunEvents(
  runId = 'run-1',
  conversationId = 'c0000000-0000-4000-8000-000000000001',
  reply = ['Hello', ', ', 'world'],
  ids: ChatRunIds = { start: 'start', llm: 'llm', answer: 'answer' },
): Ev[] {
  const e = eventScript(runId);
  const text = reply.join('');
  return [
    e.created(conversationId),
    e.runStarted('chatflow'),
    e.started(ids.start, 'start'),
    e.finished(ids.start, 'start', { query: 'hi' }, { elapsedMs: 1 }),
    e.started(ids.llm, 'llm', [], { prompt: 'hi' }),
    ...reply.map((r) => e.chunk(ids.llm, 'llm', r)),
    e.finished(ids.llm, 'llm', { text }, { elapsedMs: 840, tokens: 42 }),
    e.started(ids.answer, 'answer'),
    ...reply.map((r) => e.answer(r, ids.answer)),
    e.finished(ids.answer, 'answer', { answer: text }, { elapsedMs: 2 }),
    e.runFinished(text, {}, 42),
  ];
}

/** Node ids a scripted iteration run goes through. */
export interface IterationRunIds {
  start: string;
  iteration: string;
  code: string;
  http: string;
  end: string;
}

/** A workflow run with an iteration of two rounds (code inside), a skipped branch and an end node. */
export function iterationRunEvents(
  runId = 'run-2',
  ids: IterationRunIds = { start: 'start', iteration: 'iteration', code: 'code', http: 'http', end: 'end' },
): Ev[] {
  const e = eventScript(runId);
  const round = (index: number) => e.inRound(ids.iteration, index);
  return [
    e.created(),
    e.runStarted('workflow', { items: ['a', 'b'] }),
    e.started(ids.start, 'start'),
    e.finished(ids.start, 'start', { items: ['a', 'b'] }, { elapsedMs: 1 }),
    e.started(ids.iteration, 'iteration', [], { items: ['a', 'b'] }),
    e.iterationStarted(ids.iteration, 2),
    e.iterationNext(ids.iteration, 0),
    e.started(ids.code, 'code', round(0), { item: 'a' }),
    e.finished(ids.code, 'code', { result: 'A' }, { scope: round(0), elapsedMs: 15 }),
    e.iterationNext(ids.iteration, 1),
    e.started(ids.code, 'code', round(1), { item: 'b' }),
    e.finished(ids.code, 'code', { result: 'B' }, { scope: round(1), elapsedMs: 17 }),
    e.finished(ids.iteration, 'iteration', { output: ['A', 'B'] }, { elapsedMs: 40 }),
    e.skipped(ids.http, 'http-request'),
    e.started(ids.end, 'end'),
    e.finished(ids.end, 'end', { result: ['A', 'B'] }, { elapsedMs: 1 }),
    e.runFinished('', { result: ['A', 'B'] }),
  ];
}
