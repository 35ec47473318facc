import type { RunScopeFrame } from '../../schemas/run';
import { NodeExecutionError } from '../plugin-sdk/executor';
import type { PlanNode, PlanScope } from './compile';
import { AbortScope, RUN_ERRORS, RunAbort } from './errors';
import { executeNode } from './node';
import type { VariablePool } from './pool';
import type { Run } from './run';
import { AnswerStreams } from './stream';

export const PENDING = 0;
export const RUNNING = 1;
export const DONE = 2;
export const SKIPPED = 3;

/** Loop variables of the loops a scope is inside, by loop node id (what `ctx.assign` may write). */
export type LoopVariables = ReadonlyMap<string, { values: Record<string, unknown>; names: ReadonlySet<string> }>;

/**
 * One pass over a scope (the top level, or one round of a container's body). A node runs when
 * every incoming edge is decided and at least one is live (a join waits for all its live inputs);
 * when all are dead it is skipped, and its own edges die with it (dead-path elimination). Ready
 * nodes start at once, so parallel branches run concurrently.
 */
export class ScopeRun {
  /** Aborts when the parent does, or when a node here fails the scope. */
  readonly abort: AbortScope;
  readonly streams: AnswerStreams | undefined;
  private readonly state: Uint8Array;
  private readonly undecided: Int32Array;
  private readonly live: Uint8Array;
  private running = 0;
  private error: unknown;
  private settled = false;
  private resolve!: () => void;
  private reject!: (e: unknown) => void;

  constructor(
    readonly run: Run,
    readonly scope: PlanScope,
    readonly pool: VariablePool,
    readonly frames: RunScopeFrame[],
    parent: AbortScope,
    readonly loops?: LoopVariables,
  ) {
    const n = scope.nodes.length;
    this.state = new Uint8Array(n);
    this.live = new Uint8Array(n);
    this.undecided = new Int32Array(n);
    for (let i = 0; i < n; i++) this.undecided[i] = scope.nodes[i].inCount;
    this.abort = new AbortScope(parent);
    // The reply streams only at the top level; answers inside containers say their text when done.
    this.streams = frames.length === 0 && scope.answers.length ? new AnswerStreams(this) : undefined;
  }

  get isRoot(): boolean {
    return this.frames.length === 0;
  }

  stateOf(local: number): number {
    return this.state[local];
  }

  start(): Promise<void> {
    const done = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    if (this.abort.aborted) {
      this.error = this.abort.reason;
      this.finish();
      return done;
    }
    this.streams?.begin(this.scope.start);
    this.launch(this.scope.start);
    return done;
  }

  private launch(i: number): void {
    this.state[i] = RUNNING;
    this.running++;
    executeNode(this, this.scope.nodes[i]).then(
      (handle) => this.completed(i, handle),
      (e) => this.failed(i, e),
    );
  }

  private completed(i: number, handle: string): void {
    this.state[i] = DONE;
    if (this.error === undefined) {
      const out = this.scope.nodes[i].out;
      for (let k = 0; k < out.length; k++) this.decide(out[k].target, out[k].handle === handle);
      this.streams?.finished(i, handle);
    }
    this.running--;
    this.finish();
  }

  private failed(i: number, e: unknown): void {
    this.state[i] = DONE;
    this.running--;
    if (this.error === undefined) {
      this.error = e;
      const node = this.scope.nodes[i];
      this.abort.abort(e instanceof RunAbort ? e : new RunAbort(RUN_ERRORS.ABORTED, `Stopped because node "${node.id}" failed`));
    }
    this.finish();
  }

  private decide(target: number, live: boolean): void {
    if (live) this.live[target] = 1;
    if (--this.undecided[target] !== 0) return;
    if (this.live[target]) this.launch(target);
    else this.skip(target);
  }

  /** Skips a node and whatever only it feeds (a loop, not recursion: long dead chains are fine). */
  private skip(first: number): void {
    const stack = [first];
    while (stack.length) {
      const t = stack.pop()!;
      const node = this.scope.nodes[t];
      this.state[t] = SKIPPED;
      this.run.emit({ type: 'node_skipped', nodeId: node.id, kind: node.kind, ...(node.parentId ? { parentId: node.parentId } : {}), scope: this.frames });
      for (const e of node.out) {
        if (--this.undecided[e.target] !== 0) continue;
        if (this.live[e.target]) this.launch(e.target);
        else stack.push(e.target);
      }
    }
    this.streams?.pump();
  }

  private finish(): void {
    if (this.running !== 0 || this.settled) return;
    this.settled = true;
    this.abort.dispose();
    if (this.error !== undefined) this.reject(this.error);
    else this.resolve();
  }

  /** A node's streamed piece: a `node_chunk` event, and on to answers that quote it. */
  chunk(node: PlanNode, executionId: string, text: string): void {
    this.run.emit({
      type: 'node_chunk',
      executionId,
      nodeId: node.id,
      kind: node.kind,
      title: node.title,
      ...(node.parentId ? { parentId: node.parentId } : {}),
      scope: this.frames,
      text,
    });
    this.streams?.chunk(node.id, text);
  }

  /** `ctx.assign`: conversation variables, and loop variables of enclosing loops. */
  assign(selector: readonly string[], value: unknown): void {
    const [head, name, ...rest] = selector;
    if (name !== undefined && !rest.length) {
      if (head === 'conversation' && Object.prototype.hasOwnProperty.call(this.run.root.conversation, name)) {
        this.run.root.conversation[name] = value;
        return;
      }
      const loop = this.loops?.get(head);
      if (loop?.names.has(name)) {
        loop.values[name] = value;
        return;
      }
    }
    throw new NodeExecutionError(RUN_ERRORS.ASSIGN_INVALID, `Cannot assign ${selector.join('.')}: not a conversation or loop variable`);
  }
}
