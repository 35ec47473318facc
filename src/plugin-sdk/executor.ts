import type { FlowMode, NodeConfig } from '../../schemas/flow';
import type { KnowledgeQuery } from '../../schemas/knowledge';
import type { NodePlugin } from './types';

/**
 * The node executor contract, runtime side: what a node kind does when a flow runs. An executor is
 * plain TypeScript (no React, no Fastify, no database): the engine (`src/engine`) calls it with the
 * node's parsed config, its resolved inputs and a reader over the variable pool; outside resources
 * (models, HTTP, tools, knowledge, the code sandbox) come through `services`, injected by the server.
 *
 * Retry, timeout and error strategy are NOT the executor's business: the engine reads them from the
 * node's config (see {@link readNodeSettings}) and wraps `execute`.
 */

/** Tokens a model call used. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** Read access to the run's variables: `sys.*`, `env.*`, `conversation.*` and node outputs. */
export interface VariableReader {
  /**
   * The value at a selector (`['llm1', 'text']`, `['sys', 'query']`, `['iter1', 'item']`, nested
   * paths walk objects); undefined when absent.
   */
  get(selector: readonly string[]): unknown;
  has(selector: readonly string[]): boolean;
  /**
   * A text with each `{{#nodeId.path#}}` replaced by its value (strings as they are, other values as
   * JSON, missing ones as '').
   */
  render(template: string): string;
}

/** An error an executor throws on purpose, with a code the trace shows (e.g. `'HTTP-TIMEOUT'`). */
export class NodeExecutionError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** Extra detail for the trace (status code, response excerpt …). */
    readonly detail?: unknown,
  ) {
    super(message);
    this.name = 'NodeExecutionError';
  }
}

// ------------------------------------------------------------------ services (injected by the server)

/**
 * An image sent with a user message to a vision model: an uploaded file (the run's user must be
 * able to read it) and the detail the model looks at it with (spec 9 image modes: `low` fits it in
 * 512×512, `high` keeps it).
 */
export interface ChatImage {
  fileId: string;
  detail: 'low' | 'high';
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Images of a `user` message (vision). */
  images?: ChatImage[];
  /** Tool call id a `tool` message answers. */
  toolCallId?: string;
  /** The calls an `assistant` message asked for (sent back with their `tool` answers in a function-calling loop). */
  toolCalls?: ToolCall[];
}

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** A function a model may call: JSON Schema parameters. */
export interface ToolDefinition {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

export interface ChatRequest {
  provider: string;
  model: string;
  messages: ChatMessage[];
  /** Model parameters (temperature, top_p, max_tokens, stop …). */
  parameters?: Record<string, unknown>;
  tools?: ToolDefinition[];
}

export interface ChatResult {
  text: string;
  toolCalls?: ToolCall[];
  usage?: TokenUsage;
  finishReason?: string;
  /** The model's reasoning, when it gives it apart from the text. */
  reasoning?: string;
}

/** Model calls (chat with streaming and tools, embeddings). */
export interface ModelService {
  chat(request: ChatRequest, opts: { signal: AbortSignal; onChunk?: (text: string) => void }): Promise<ChatResult>;
  embed?(input: { provider: string; model: string; texts: string[] }, opts: { signal: AbortSignal }): Promise<number[][]>;
}

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs?: number;
  signal: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The guarded HTTP client (timeouts, size limits, private-address blocking). */
export interface HttpClient {
  request(req: HttpRequest): Promise<HttpResponse>;
}

/** Tools (custom HTTP tools, built-in tools, MCP servers). */
export interface ToolService {
  call(tool: { provider: string; name: string }, args: Record<string, unknown>, opts: { signal: AbortSignal }): Promise<unknown>;
  /** The tool's description and JSON Schema parameters, for a model to call it (agents); undefined when unknown. */
  describe?(tool: { provider: string; name: string }, opts: { signal: AbortSignal }): Promise<ToolDefinition | undefined>;
}

/** What an MCP tool call gives back (the protocol's `CallToolResult`). */
export interface McpToolResult {
  content: ({ type: 'text'; text: string } | { type: string; [key: string]: unknown })[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * Tools of the MCP servers a workspace registered (stdio or streamable HTTP); the server implements
 * it with @modelcontextprotocol/sdk.
 */
export interface McpService {
  callTool(tool: { serverId: string; name: string }, args: Record<string, unknown>, opts: { signal: AbortSignal }): Promise<McpToolResult>;
  /** The tool's description and input schema (agents); undefined when the server has no such tool. */
  describeTool?(tool: { serverId: string; name: string }, opts: { signal: AbortSignal }): Promise<ToolDefinition | undefined>;
}

/** Earlier turns of the conversation a chat run belongs to (llm and agent memory). */
export interface ConversationMemory {
  /** The last `turns` question/answer pairs, oldest first, as user and assistant messages. */
  history(query: { conversationId: string; turns: number }, opts: { signal: AbortSignal }): Promise<ChatMessage[]>;
}

/** The memory settings of a node's config (plugins/shared/model.ts memoryShape): the one rule for a node's memory window, shared by
 * the model nodes (plugins/shared/exec/model-call.ts) and the server's read at run start. */
export interface MemoryConfig {
  memoryEnabled?: boolean;
  memoryWindowEnabled?: boolean;
  memoryWindow?: number;
}

/**
 * How many turns a node's memory takes (0: memory off). The server reads a run's memory as the run
 * starts with the most turns any of its nodes takes (src/server/runs/memory.ts).
 */
export function memoryTurns(config: MemoryConfig): number {
  if (!config.memoryEnabled) return 0;
  // "No window" still needs a bound: a long conversation must not overflow the prompt unchecked.
  return config.memoryWindowEnabled === false ? 100 : Math.max(1, config.memoryWindow ?? 10);
}

export interface KnowledgeChunk {
  content: string;
  score: number;
  title?: string;
  datasetId?: string;
  documentId?: string;
  segmentId?: string;
  /** How it was found: by its vector, its words, or as a knowledge-graph neighbour of the others. */
  source?: 'vector' | 'full_text' | 'graph';
  metadata?: Record<string, unknown>;
}

/** One knowledge search: the zod schema `KnowledgeQuery` of schemas/knowledge.ts (the server parses it). */
export type { KnowledgeQuery };

/**
 * Text of files a run was given (document extractor): the server reads the file as the run's user
 * may (the same rule as downloads) and parses it with the knowledge parsers. Fails with an Error
 * whose message names the file and why.
 */
export interface FileTextService {
  /** `file` is a file value of the run (`{ file_id | id, name? }`). */
  text(file: unknown, opts: { signal: AbortSignal }): Promise<string>;
}

/** Knowledge retrieval. */
export interface KnowledgeService {
  retrieve(query: KnowledgeQuery, opts: { signal: AbortSignal }): Promise<KnowledgeChunk[]>;
}

/**
 * The code sandbox (QuickJS in a worker). Jobs may wait for a free worker: `onQueue` hears how many
 * jobs are ahead while it waits and `null` when a worker takes it (pass it on to `ctx.waiting`).
 * The time limit counts from then; a wait past the server's limit fails with SANDBOX-QUEUE-TIMEOUT.
 */
export interface SandboxService {
  run(
    job: { language: string; code: string; inputs: Record<string, unknown>; timeoutMs?: number; memoryMb?: number },
    opts: { signal: AbortSignal; onQueue?: (position: { ahead: number } | null) => void },
  ): Promise<Record<string, unknown>>;
}

/**
 * A plugin's credentials for the run's tenant (set by its admins under System › Plugins): the values
 * in clear, or null when none are set or the kind comes with Weft. Pass the node's own kind: an
 * executor gets only its own plugin's set, and asking for a kind of another plugin fails with
 * PLUGIN-CREDENTIALS-FOREIGN.
 * @example const creds = await ctx.services.credentials?.forKind(ctx.node.kind); const key = creds?.api_key;
 */
export interface PluginCredentialService {
  forKind(kind: string): Promise<Record<string, string | number | boolean | null> | null>;
  /**
   * The service as the executor of one node kind gets it (the engine calls this for each node; the
   * server's service refuses every kind until it is bound to one).
   */
  forExecutor?(kind: string): PluginCredentialService;
}

/** What the server injects; each may be absent (an executor that needs one fails with a clear error). */
export interface ExecutorServices {
  models?: ModelService;
  http?: HttpClient;
  tools?: ToolService;
  mcp?: McpService;
  knowledge?: KnowledgeService;
  sandbox?: SandboxService;
  memory?: ConversationMemory;
  files?: FileTextService;
  credentials?: PluginCredentialService;
}

// ------------------------------------------------------------------ containers

/**
 * Iteration error modes (Dify's names): `terminated` fails the node at the first failed round,
 * `continue-on-error` puts `null` in place of a failed round's output, `remove-abnormal-output`
 * leaves failed rounds out.
 */
export type IterationErrorMode = 'terminated' | 'continue-on-error' | 'remove-abnormal-output';

export interface IterateOptions {
  /** Rounds running at once (default 1: one after the other). */
  parallelism?: number;
  errorMode?: IterationErrorMode;
  /** What each round contributes to the output, selected inside (e.g. `['code2', 'result']`). */
  output?: readonly string[];
}

export interface IterateResult {
  /** One entry per round in item order (see the error modes). */
  output: unknown[];
  /** Indexes of failed rounds. */
  failed: number[];
}

export interface LoopOptions {
  /** At most this many rounds. */
  maxCount: number;
  /** Loop variables and their initial values, selected inside as `[loopId, name]`. */
  variables?: Record<string, unknown>;
  /**
   * Checked after each round with a reader that sees the loop variables and the round's outputs;
   * true stops the loop. (An executor that wants a check before the first round makes it itself
   * with `ctx.variables`.)
   */
  shouldBreak?(variables: VariableReader, round: number): boolean | Promise<boolean>;
}

export interface LoopResult {
  rounds: number;
  /** The loop variables' final values. */
  variables: Record<string, unknown>;
  /** Whether `shouldBreak` ended the loop (false: `maxCount` reached). */
  broke: boolean;
}

/**
 * Runs the body of a container node (its child nodes, from its start node). Given to container
 * executors (iteration, loop) as `ctx.container`. Inside, nodes see `[containerId, 'item']` and
 * `[containerId, 'index']` (iteration) or `[containerId, name]` and `index` (loop).
 */
export interface ContainerRunner {
  iterate(items: readonly unknown[], opts?: IterateOptions): Promise<IterateResult>;
  loop(opts: LoopOptions): Promise<LoopResult>;
}

// ------------------------------------------------------------------ the contract

/** What `execute` gets. */
export interface ExecutionContext<C extends NodeConfig = NodeConfig> {
  readonly runId: string;
  readonly mode: FlowMode;
  readonly node: { readonly id: string; readonly kind: string; readonly title: string; readonly parentId?: string };
  /** The config, migrated and parsed with the plugin's schema (defaults filled). */
  readonly config: C;
  /** What `inputs()` resolved (by default: each reference in the config, keyed `node.path`). */
  readonly inputs: Record<string, unknown>;
  /** The run's own inputs (the start node's form values). */
  readonly runInputs: Record<string, unknown>;
  readonly variables: VariableReader;
  /** Aborted on stop, timeout, or when the run fails elsewhere. Pass it to every call that waits. */
  readonly signal: AbortSignal;
  /** 0 for the first try, then 1, 2 … on retries. */
  readonly attempt: number;
  /** Streams a piece of the output named by `streamOutput` (an answer node can stream it on). */
  emitChunk(text: string): void;
  /**
   * Says the node is waiting for a shared resource before it can work (`sandbox`: a free code
   * sandbox, `ahead` jobs before it), or with null that the wait is over. While it waits the node's
   * timeout does not run, and the run's events (the debug pane, the trace) show the wait.
   * @example services.sandbox.run(job, { signal, onQueue: (q) => waiting(q && { reason: 'sandbox', ahead: q.ahead }) })
   */
  waiting(wait: { reason: 'sandbox'; ahead: number } | null): void;
  /**
   * Writes a variable: `['conversation', name]` or a loop variable `[loopId, name]` of a loop this
   * node is inside. Throws NodeExecutionError for anything else.
   */
  assign(selector: readonly string[], value: unknown): void;
  readonly services: ExecutorServices;
  /** Present for container kinds (iteration, loop). */
  readonly container?: ContainerRunner;
  /**
   * A detached node of the flow (not scheduled: an agent team's agents that only take hand-offs),
   * by id; undefined when there is no such node. Present only when the flow has detached nodes, so
   * an executor without it keeps its plain behaviour.
   * @example const billing = ctx.peer?.('billing'); if (billing?.kind === 'agent') runAs(billing.config);
   */
  readonly peer?: (nodeId: string) => PeerNode | undefined;
}

/** A detached node as a running node sees it: its config is migrated and parsed like its own. */
export interface PeerNode {
  readonly id: string;
  readonly kind: string;
  readonly title: string;
  readonly config: NodeConfig;
}

/** What `execute` returns. */
export interface NodeExecutionResult {
  /** Values downstream nodes select as `[nodeId, name, ...]`. */
  outputs: Record<string, unknown>;
  /** The branch taken (an if-else case id, a classifier class id); default `'source'`. */
  handle?: string;
  usage?: TokenUsage;
}

export interface NodeExecutorDefinition<C extends NodeConfig> {
  /** The node kind this executor runs (the plugin's `kind`). */
  kind: string;
  execute(ctx: ExecutionContext<C>): Promise<NodeExecutionResult> | NodeExecutionResult;
  /** The inputs shown in the trace and given as `ctx.inputs` (default: every reference in the config). */
  inputs?(config: C, variables: VariableReader): Record<string, unknown>;
  /** The output the node's chunks build (default `'text'`). */
  streamOutput?: string;
  /**
   * Answer nodes: the template the engine streams as the run's answer. Its literal text goes out as
   * soon as the node is sure to run; references to a streaming output (an llm's `text`) pass its
   * chunks on as they arrive; other references go out when their node finishes.
   */
  answerTemplate?(config: C): string;
  /** End nodes: the node's outputs become the run's outputs. */
  providesRunOutputs?: boolean;
}

/** A defined executor. Methods (not function properties) so a `NodeExecutor<LlmConfig>` fits a list. */
export interface NodeExecutor<C extends NodeConfig = NodeConfig> {
  readonly kind: string;
  readonly streamOutput: string;
  readonly providesRunOutputs: boolean;
  execute(ctx: ExecutionContext<C>): Promise<NodeExecutionResult> | NodeExecutionResult;
  inputs?(config: C, variables: VariableReader): Record<string, unknown>;
  answerTemplate?(config: C): string;
}

export type AnyNodeExecutor = NodeExecutor<NodeConfig>;

/**
 * Defines the executor of a node kind. Pass the plugin first to type the config from its schema.
 * @example
 * export const weatherExecutor = defineNodeExecutor(weather, {
 *   async execute({ config, variables, services, signal }) {
 *     const city = variables.get(config.city);
 *     const res = await services.http!.request({ method: 'GET', url: `https://wx.example/${city}`, signal });
 *     return { outputs: { summary: res.body, temperature: 21 } };
 *   },
 * });
 */
export function defineNodeExecutor<C extends NodeConfig>(plugin: NodePlugin<C>, def: Omit<NodeExecutorDefinition<C>, 'kind'>): NodeExecutor<C>;
export function defineNodeExecutor<C extends NodeConfig = NodeConfig>(def: NodeExecutorDefinition<C>): NodeExecutor<C>;
export function defineNodeExecutor<C extends NodeConfig>(
  a: NodePlugin<C> | NodeExecutorDefinition<C>,
  b?: Omit<NodeExecutorDefinition<C>, 'kind'>,
): NodeExecutor<C> {
  const def: NodeExecutorDefinition<C> = b ? { ...b, kind: a.kind } : (a as NodeExecutorDefinition<C>);
  const { execute, inputs, answerTemplate } = def;
  return Object.freeze({
    kind: def.kind,
    streamOutput: def.streamOutput ?? 'text',
    providesRunOutputs: def.providesRunOutputs ?? false,
    execute: (ctx: ExecutionContext<C>) => execute.call(def, ctx),
    ...(inputs ? { inputs: (config: C, v: VariableReader) => inputs.call(def, config, v) } : {}),
    ...(answerTemplate ? { answerTemplate: (config: C) => answerTemplate.call(def, config) } : {}),
  });
}

/** The executors a server (or a test) knows, by kind; mirrors the node registry. */
export interface ExecutorRegistry {
  readonly executors: readonly AnyNodeExecutor[];
  get(kind: string): AnyNodeExecutor | undefined;
  has(kind: string): boolean;
  /** A new registry with more executors. */
  extend(more: readonly AnyNodeExecutor[]): ExecutorRegistry;
}

/**
 * A registry over a list of executors. Throws on a duplicate kind.
 * @example const executors = createExecutorRegistry([startExecutor, llmExecutor, answerExecutor]);
 */
export function createExecutorRegistry(executors: readonly AnyNodeExecutor[]): ExecutorRegistry {
  const byKind = new Map<string, AnyNodeExecutor>();
  for (const e of executors) {
    if (byKind.has(e.kind)) throw new Error(`Two executors for node kind "${e.kind}"`);
    byKind.set(e.kind, e);
  }
  return {
    executors: [...executors],
    get: (kind) => byKind.get(kind),
    has: (kind) => byKind.has(kind),
    extend: (more) => createExecutorRegistry([...executors, ...more]),
  };
}
