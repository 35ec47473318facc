import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Where a chat message's time goes before its first answer chunk (issues 21/34), for
 * `BENCH_BREAKDOWN=1 npm run bench:portal`: timestamps along the path of each traced request, and
 * the embedded database's statements (each one's wait in the database thread's queue, its execution,
 * the way back to the server's thread), those on a request's path before its first chunk and all of
 * them. Off unless {@link traceFirstTokens} turned it on: then every mark is one boolean test, and no
 * AsyncLocalStorage is ever entered (its promise hooks cost every await of the server).
 */

/** The path's points, in order. */
export const MARKS = ['in', 'auth', 'handler', 'target', 'run', 'model', 'sent', 'headers', 'text', 'frame'] as const;
export type Mark = (typeof MARKS)[number];

/** What each point is, for the bench's print. */
export const MARK_LABELS: Record<Mark, string> = {
  in: 'request in (onRequest)',
  auth: 'token and caller checked',
  handler: 'body read and validated',
  target: 'app and distribution read',
  run: 'run started (engine)',
  model: 'model node calls the model',
  sent: "provider's request written",
  headers: "provider's answer headers",
  text: "provider's first token parsed",
  frame: 'first answer chunk written',
};

/** One statement as the embedded database's client saw it (ms, on the server thread's clock). */
export interface DbTiming {
  /** SQL's first word (select, insert, with, update, begin…). */
  verb: string;
  /** Sent → taken by the database thread (its queue, and the thread busy with earlier ones). */
  waitMs: number;
  /** Executing in PGlite. */
  execMs: number;
  /** Its answer's way back: the server thread's event loop busy meanwhile. */
  backMs: number;
}

export interface FirstTokenTrace {
  marks: Partial<Record<Mark, number>>;
  /** Statements awaited on this request's path before its first chunk. */
  db: DbTiming[];
}

let on = false;
const als = new AsyncLocalStorage<FirstTokenTrace>();
const byRequest = new WeakMap<object, FirstTokenTrace>();
let traces: FirstTokenTrace[] = [];
let statements: DbTiming[] = [];

/** Turns tracing on (the bench, before the server starts) or off. */
export function traceFirstTokens(enable: boolean): void {
  on = enable;
}

export const tracing = () => on;

/** Starts a request's trace (its first hook). */
export function traceRequest(req: object): void {
  if (!on) return;
  const t: FirstTokenTrace = { marks: { in: performance.now() }, db: [] };
  byRequest.set(req, t);
}

/** A mark of the request itself (its hooks, before the handler). */
export function markRequest(req: object, m: Mark): void {
  if (!on) return;
  const t = byRequest.get(req);
  if (t && t.marks[m] === undefined) t.marks[m] = performance.now();
}

/** Runs the request's handler with its trace reachable from everything it awaits (models, database). */
export function withRequestTrace<T>(req: object, fn: () => T): T {
  const t = on ? byRequest.get(req) : undefined;
  if (!t) return fn();
  traces.push(t);
  return als.run(t, fn);
}

/** A mark on the path of the current traced request (first time only). */
export function mark(m: Mark): void {
  if (!on) return;
  const t = als.getStore();
  if (t && t.marks[m] === undefined) t.marks[m] = performance.now();
}

/** Called with a statement's start and end in the database thread, on this thread's clock. */
export type StatementTimer = (startMs: number, endMs: number) => void;

/**
 * For the embedded database's client, as it sends a statement: undefined unless tracing; else what
 * to call when its answer comes back (counted in all statements, and in the current request's path
 * while its first chunk has not gone out).
 */
export function statementTimer(sql: string): StatementTimer | undefined {
  if (!on) return undefined;
  const sent = performance.now();
  const trace = als.getStore();
  const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase() ?? '?';
  return (start, end) => {
    const s: DbTiming = { verb, waitMs: start - sent, execMs: end - start, backMs: performance.now() - end };
    statements.push(s);
    if (trace && trace.marks.frame === undefined) trace.db.push(s);
  };
}

/** What was traced since the last call (and forgets it). */
export function takeTraces(): { traces: FirstTokenTrace[]; statements: DbTiming[] } {
  const out = { traces, statements };
  traces = [];
  statements = [];
  return out;
}
