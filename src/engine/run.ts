import type { RunError, RunEvent, TokenUsage } from '../../schemas/run';
import type { ExecutorServices } from '../plugin-sdk/executor';
import type { ExecutionPlan } from './compile';
import { AbortScope, RUN_ERRORS, RunAbort, toRunError } from './errors';
import { EventQueue } from './events';
import { maskError, MaskedEvents } from './masked-events';
import { VariablePool, type RootVariables } from './pool';
import { ScopeRun } from './scope';
import { createSecretMasker, type SecretMasker } from './secrets';

/** Limits of one run; exceeding one ends the run with its code (STEP_LIMIT, DEPTH_LIMIT, TIME_LIMIT). */
export interface RunLimits {
  /** Node executions in all, container rounds included (default 5,000). */
  maxSteps: number;
  /** Containers inside containers (default 5). */
  maxDepth: number;
  /** Wall time of the whole run in ms (default 20 minutes). */
  maxRunTimeMs: number;
}

export const DEFAULT_RUN_LIMITS: Readonly<RunLimits> = Object.freeze({ maxSteps: 5000, maxDepth: 5, maxRunTimeMs: 20 * 60_000 });

/** The `sys.*` variables a caller may give (the engine fills `files` and `workflow_run_id`). */
export interface SystemInputs {
  query?: string;
  files?: unknown[];
  conversation_id?: string;
  /** The turn of the conversation this run answers (1 for the first message). */
  dialogue_count?: number;
  user_id?: string;
  app_id?: string;
  workflow_run_id?: string;
  /** The end user's character for the conversation (portal): LLM and agent nodes add it to their system instructions. */
  persona?: string;
}

export interface RunOptions {
  /** The start node's form values. */
  inputs?: Record<string, unknown>;
  sys?: SystemInputs;
  /**
   * Secret environment values by name (decrypted by the server); the document's values fill the
   * rest. Every value given here is a secret: nodes read it in clear, but every event and the result
   * carry it masked (`******`, ./secrets.ts), so no stream, trace, log or stored row holds it.
   */
  env?: Record<string, unknown>;
  /** More values masked like env's (not readable by nodes): the secrets of the run that started this one. */
  secrets?: readonly unknown[];
  /** The conversation's current variable values; the document's defaults fill the rest. */
  conversation?: Record<string, unknown>;
  /** Aborting it stops the run (status `stopped`, code CANCELLED). */
  signal?: AbortSignal;
  limits?: Partial<RunLimits>;
  services?: ExecutorServices;
  /** Default: a random UUID. */
  runId?: string;
  /** Called with each event as it happens (besides the async iterator). */
  onEvent?: (event: RunEvent) => void;
  /** Keep events for the async iterator (default true; false when only `onEvent` is used). */
  bufferEvents?: boolean;
}

export interface RunResult {
  runId: string;
  status: 'succeeded' | 'failed' | 'stopped';
  /** What end nodes output. */
  outputs: Record<string, unknown>;
  /** What answer nodes said, in order. */
  answer: string;
  error?: RunError;
  usage: TokenUsage;
  steps: number;
  elapsedMs: number;
  /** The conversation variables after the run (to store with the conversation). */
  conversation: Record<string, unknown>;
}

/** A running flow: iterate it for the events; `result` settles when it ends (it never rejects). */
export interface RunExecution extends AsyncIterable<RunEvent> {
  readonly runId: string;
  readonly result: Promise<RunResult>;
  /** Same as aborting `signal`. */
  cancel(): void;
}

type Distribute<T> = T extends unknown ? Omit<T, 'runId' | 'seq' | 'at'> : never;
/** An event as the engine's parts hand it to `emit` (run id, sequence and time are added). */
export type EventBody = Distribute<RunEvent>;

/** The state one run shares across its scopes (internal to the engine). */
export class Run {
  readonly runId: string;
  readonly limits: RunLimits;
  readonly root: RootVariables;
  readonly inputs: Record<string, unknown>;
  readonly services: ExecutorServices;
  readonly abortScope = new AbortScope();
  readonly outputs: Record<string, unknown> = {};
  readonly usage: TokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  answer = '';
  steps = 0;
  fatal: RunAbort | undefined;
  private seq = 0;
  private executions = 0;
  /** The services each node kind's executor gets (credentials bound to that kind's plugin). */
  private readonly kindServices = new Map<string, ExecutorServices>();
  /** Masks the secrets (opts.env) in what leaves the run: events and result. */
  private readonly masker: SecretMasker;
  private readonly masked: MaskedEvents | undefined;

  constructor(
    readonly plan: ExecutionPlan,
    private readonly opts: RunOptions,
    private readonly sink: (event: RunEvent) => void,
  ) {
    this.runId = opts.runId ?? globalThis.crypto.randomUUID();
    this.limits = { ...DEFAULT_RUN_LIMITS, ...opts.limits };
    this.inputs = opts.inputs ?? {};
    this.services = opts.services ?? {};
    this.root = {
      sys: { files: [], ...opts.sys, workflow_run_id: opts.sys?.workflow_run_id ?? this.runId },
      env: { ...plan.envDefaults, ...opts.env },
      conversation: { ...structuredClone(plan.conversationDefaults), ...opts.conversation },
    };
    this.masker = createSecretMasker([...Object.values(opts.env ?? {}), ...(opts.secrets ?? [])]);
    this.masked = this.masker.active ? new MaskedEvents(this.masker) : undefined;
  }

  /**
   * The services as an executor of `kind` gets them: the same objects, but plugin credentials bound
   * to that kind, so a plugin's executor reaches its own plugin's set and no other (one per kind a run).
   */
  servicesFor(kind: string): ExecutorServices {
    const bind = this.services.credentials?.forExecutor;
    if (!bind) return this.services;
    let s = this.kindServices.get(kind);
    if (!s) {
      s = { ...this.services, credentials: bind.call(this.services.credentials, kind) };
      this.kindServices.set(kind, s);
    }
    return s;
  }

  /** Every event leaves the engine here: with secrets, masked (and streamed text held back while it may be one). */
  emit(body: EventBody): void {
    if (!this.masked) return this.push(body);
    for (const b of this.masked.process(body)) this.push(b);
  }

  private push(body: EventBody): void {
    this.sink({ runId: this.runId, seq: this.seq++, at: Date.now(), ...body } as RunEvent);
  }

  nextExecutionId(): string {
    return `x${++this.executions}`;
  }

  /** Counts a node execution; ends the run past the limit. */
  step(): void {
    if (++this.steps > this.limits.maxSteps) throw this.abort(new RunAbort(RUN_ERRORS.STEP_LIMIT, `The run took more than ${this.limits.maxSteps} steps`));
  }

  /** Ends the run: every running node's signal aborts with `reason`. The first reason wins. */
  abort(reason: RunAbort): RunAbort {
    if (!this.fatal) {
      this.fatal = reason;
      this.abortScope.abort(reason);
    }
    return this.fatal;
  }

  addUsage(u: TokenUsage): void {
    this.usage.promptTokens += u.promptTokens || 0;
    this.usage.completionTokens += u.completionTokens || 0;
    this.usage.totalTokens += u.totalTokens || 0;
  }

  say(nodeId: string, text: string): void {
    if (!text) return;
    this.answer += text;
    this.emit({ type: 'answer_chunk', nodeId, text });
  }

  async start(): Promise<RunResult> {
    const t0 = performance.now();
    const { signal } = this.opts;
    const onCancel = () => this.abort(new RunAbort(RUN_ERRORS.CANCELLED, 'The run was stopped'));
    signal?.addEventListener('abort', onCancel, { once: true });
    const timer = setTimeout(
      () => this.abort(new RunAbort(RUN_ERRORS.TIME_LIMIT, `The run took longer than ${this.limits.maxRunTimeMs} ms`)),
      this.limits.maxRunTimeMs,
    );
    this.emit({ type: 'run_started', mode: this.plan.mode, inputs: this.inputs });
    let error: unknown;
    try {
      if (signal?.aborted) onCancel();
      await new ScopeRun(this, this.plan.root, new VariablePool(this.root), [], this.abortScope).start();
    } catch (e) {
      error = e;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCancel);
    }
    const elapsedMs = performance.now() - t0;
    // The result is stored and answered like the events: masked (the conversation's variables too).
    const m = this.masker;
    const common = { runId: this.runId, outputs: m.value(this.outputs), answer: m.text(this.answer), usage: this.usage, steps: this.steps, elapsedMs };
    const conversation = m.value(this.root.conversation);
    if (error === undefined) {
      this.emit({ type: 'run_finished', elapsedMs, outputs: this.outputs, answer: this.answer, usage: this.usage, steps: this.steps });
      return { ...common, status: 'succeeded', conversation };
    }
    const cause = this.fatal ?? error;
    const runError = toRunError(cause);
    const status = cause instanceof RunAbort && cause.code === RUN_ERRORS.CANCELLED ? 'stopped' : 'failed';
    this.emit({ type: 'run_failed', status, elapsedMs, error: runError, outputs: this.outputs, answer: this.answer, usage: this.usage, steps: this.steps });
    return { ...common, status, error: maskError(m, runError), conversation };
  }
}

/**
 * Runs a compiled flow. Iterate the result for the run events (once); await `result` for the end.
 * @example
 * const execution = run(plan, { inputs: { city: 'Paris' }, signal: stop.signal, services });
 * for await (const event of execution) send(event);
 * const { status, outputs } = await execution.result;
 */
export function run(plan: ExecutionPlan, opts: RunOptions = {}): RunExecution {
  const queue = new EventQueue<RunEvent>();
  const buffer = opts.bufferEvents !== false;
  const onEvent = opts.onEvent;
  const sink = (e: RunEvent) => {
    if (buffer) queue.push(e);
    try {
      onEvent?.(e);
    } catch {
      // A listener's fault must not break the run.
    }
  };
  const r = new Run(plan, opts, sink);
  const result = r.start().finally(() => queue.close());
  return {
    runId: r.runId,
    result,
    cancel: () => r.abort(new RunAbort(RUN_ERRORS.CANCELLED, 'The run was stopped')),
    [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
  };
}
