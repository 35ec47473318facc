import { stringify } from './pool';
import { DONE, RUNNING, SKIPPED, type ScopeRun } from './scope';

interface Cursor {
  /** Next segment of the template. */
  seg: number;
  /** Next chunk of the streaming node the current segment quotes. */
  chunk: number;
  done: boolean;
}

/**
 * Streams the answer nodes of the top level as the run's reply, in order. An answer starts once it
 * is sure to run (its branch decided: it follows, through nodes with a single way out, a node that
 * ran or the start) and every answer upstream of it has said everything. Its literal text goes out
 * at once; a reference to a node's streamed output (`executor.streamOutput`) passes the chunks on
 * as they come; other references wait for their node.
 */
export class AnswerStreams {
  private readonly certain: Uint8Array;
  private readonly cursors = new Map<number, Cursor>();
  /** Chunks of nodes that some answer quotes. */
  private readonly chunks = new Map<string, string[]>();
  private readonly quoted = new Set<string>();

  constructor(private readonly scope: ScopeRun) {
    const { nodes, answers } = scope.scope;
    this.certain = new Uint8Array(nodes.length);
    for (const a of answers) {
      this.cursors.set(a, { seg: 0, chunk: 0, done: false });
      for (const s of nodes[a].answer!.segments) if ('selector' in s) this.quoted.add(s.selector[0]);
    }
  }

  begin(start: number): void {
    this.markCertain(start);
    this.pump();
  }

  chunk(nodeId: string, text: string): void {
    if (!this.quoted.has(nodeId)) return;
    const list = this.chunks.get(nodeId);
    if (list) list.push(text);
    else this.chunks.set(nodeId, [text]);
    this.pump();
  }

  /** A node finished along `handle`: the nodes its live edges lead to are sure to run. */
  finished(local: number, handle: string): void {
    for (const e of this.scope.scope.nodes[local].out) if (e.handle === handle) this.markCertain(e.target);
    this.pump();
  }

  /** The answer node ran: say what is left of it (its references are all settled by now). */
  complete(local: number): void {
    this.pump();
    const cur = this.cursors.get(local);
    if (cur && !cur.done) this.advance(local, cur, true);
  }

  private markCertain(first: number): void {
    const nodes = this.scope.scope.nodes;
    const stack = [first];
    while (stack.length) {
      const i = stack.pop()!;
      if (this.certain[i]) continue;
      this.certain[i] = 1;
      if (nodes[i].singleOutcome) for (const e of nodes[i].out) stack.push(e.target);
    }
  }

  private finishedSaying(a: number): boolean {
    return this.cursors.get(a)!.done || this.scope.stateOf(a) === SKIPPED;
  }

  pump(): void {
    const nodes = this.scope.scope.nodes;
    for (const a of this.scope.scope.answers) {
      const cur = this.cursors.get(a)!;
      if (cur.done) continue;
      const state = this.scope.stateOf(a);
      if (state === SKIPPED) {
        cur.done = true;
        continue;
      }
      if (!this.certain[a] && state !== RUNNING) continue;
      if (!nodes[a].answer!.ancestors.every((j) => this.finishedSaying(j))) continue;
      this.advance(a, cur, false);
    }
  }

  /** Says what can be said of answer `a`; `force`: render whatever is left. */
  private advance(a: number, cur: Cursor, force: boolean): void {
    const { scope } = this;
    const answerId = scope.scope.nodes[a].id;
    const segments = scope.scope.nodes[a].answer!.segments;
    while (cur.seg < segments.length) {
      const s = segments[cur.seg];
      if ('text' in s) {
        scope.run.say(answerId, s.text);
        cur.seg++;
        continue;
      }
      const src = scope.scope.byId.get(s.selector[0]);
      // `sys.*` and `env.*` never change during a run. Anything else that is not a node of this
      // scope (`conversation.*`, which an assigner may change before the answer runs) is read when
      // the answer node itself runs, so it shows the value as of then, not as of the start.
      const constant = !src && (s.selector[0] === 'sys' || s.selector[0] === 'env');
      const state = src ? scope.stateOf(src.local) : constant ? DONE : RUNNING;
      if (state !== SKIPPED) {
        const streamed =
          src && s.selector.length === 2 && src.executor?.streamOutput === s.selector[1] ? this.chunks.get(src.id) : undefined;
        if (streamed) while (cur.chunk < streamed.length) scope.run.say(answerId, streamed[cur.chunk++]);
        if (state !== DONE && !force) return;
        if (!streamed) scope.run.say(answerId, stringify(scope.pool.get(s.selector)));
      }
      cur.seg++;
      cur.chunk = 0;
    }
    cur.done = true;
  }
}
