/**
 * `BENCH_BREAKDOWN=1 npm run bench:portal` (one server process): where the first token's time goes,
 * from the server's own traces (src/server/runs/first-token-trace.ts). For the single messages and
 * for the burst: each step of the path (p50/p95 of the time from the previous mark), then the
 * embedded database's statements: how many a stream, by kind, and for each its wait (sent → taken
 * by the database thread: the queue and the thread busy), its execution and its way back (the
 * server thread's event loop busy), and those sent from a request's path before its first chunk.
 * Tracing itself costs a little (an AsyncLocalStorage around each chat request): the figures of a
 * traced run are the breakdown's, not the bench's.
 */
import { MARKS, MARK_LABELS, type DbTiming, type FirstTokenTrace } from '../../src/server/runs/first-token-trace';

const quantile = (xs: number[], q: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const f = (n: number) => (Number.isNaN(n) ? '      –' : n.toFixed(2).padStart(7));
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function dbLines(label: string, list: DbTiming[], per: number): string[] {
  const out = [`  ${label}: ${(list.length / per).toFixed(1)} a stream (${list.length})`];
  const byVerb = new Map<string, DbTiming[]>();
  for (const s of list) byVerb.set(s.verb, [...(byVerb.get(s.verb) ?? []), s]);
  for (const [verb, xs] of [...byVerb].sort((a, b) => b[1].length - a[1].length)) {
    const w = xs.map((x) => x.waitMs);
    const e = xs.map((x) => x.execMs);
    const b = xs.map((x) => x.backMs);
    out.push(
      `    ${verb.padEnd(8)} ${String(xs.length).padStart(5)}  wait p50 ${f(quantile(w, 0.5))} p95 ${f(quantile(w, 0.95))} | exec p50 ${f(quantile(e, 0.5))} p95 ${f(quantile(e, 0.95))} sum ${f(sum(e))} | back p50 ${f(quantile(b, 0.5))} p95 ${f(quantile(b, 0.95))} ms`,
    );
  }
  return out;
}

/** The breakdown's lines for one set of traces (`streams`: how many streams they are). */
export function breakdown(title: string, traces: FirstTokenTrace[], statements: DbTiming[], streams: number): string[] {
  const out = [`first-token breakdown, ${title} (${traces.length} requests traced; ms from the previous mark, p50 / p95)`];
  for (let i = 1; i < MARKS.length; i++) {
    const steps: number[] = [];
    for (const t of traces) {
      const at = t.marks[MARKS[i]!];
      // The previous mark the request has (a step it skipped leaves none).
      let j = i - 1;
      while (j >= 0 && t.marks[MARKS[j]!] === undefined) j--;
      const from = j >= 0 ? t.marks[MARKS[j]!] : undefined;
      if (at !== undefined && from !== undefined) steps.push(at - from);
    }
    out.push(`  ${MARK_LABELS[MARKS[i]!].padEnd(34)} ${f(quantile(steps, 0.5))} / ${f(quantile(steps, 0.95))}   (${steps.length})`);
  }
  const server = traces.filter((t) => t.marks.in !== undefined && t.marks.frame !== undefined && t.marks.text !== undefined && t.marks.sent !== undefined);
  const before = server.map((t) => t.marks.sent! - t.marks.in!);
  const after = server.map((t) => t.marks.frame! - t.marks.text!);
  out.push(`  in the server: request in → provider's request ${f(quantile(before, 0.5))} / ${f(quantile(before, 0.95))}; first token parsed → chunk written ${f(quantile(after, 0.5))} / ${f(quantile(after, 0.95))}`);
  out.push(...dbLines('statements on the requests\' paths before their first chunk (sent from their context: reads awaited, writes they queued)', traces.flatMap((t) => t.db), streams));
  out.push(...dbLines('all statements of the embedded database', statements, streams));
  return out;
}
