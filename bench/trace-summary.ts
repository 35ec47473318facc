/**
 * What a Chromium trace of one open (bench/canvas-editor.ts, BENCH_TRACE) spent on the renderer's
 * main thread: the previous page's pagehide and unload, then the new page's script, style, layout
 * and garbage collection, each as wall time and as the thread's own CPU time (`tdur`), which a
 * loaded machine inflates much less than wall time. Top-level events only (no double counting).
 */
import fs from 'node:fs';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { type?: string } };
}

/** Work kinds by the trace events that carry them (the outermost of each kind inside a task counts). */
const KINDS: Record<string, string[]> = {
  script: ['FunctionCall', 'EvaluateScript', 'v8.evaluateModule', 'FireAnimationFrame', 'TimerFire', 'FireIdleCallback', 'RunMicrotasks'],
  style: ['UpdateLayoutTree'],
  layout: ['Layout'],
  gc: ['MinorGC', 'MajorGC', 'V8.GCScavenger', 'V8.GCFinalizeMC'],
  paint: ['Paint', 'PrePaint', 'Layerize', 'Commit'],
};

const ms = (us: number) => `${(us / 1000).toFixed(0)} ms`;

export function summariseOpenTrace(file: string): string[] {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(raw) ? raw : (raw.traceEvents ?? []);
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const out: string[] = [];
  for (const key of mains) {
    const mine = events.filter((e) => e.ph === 'X' && e.dur !== undefined && `${e.pid}:${e.tid}` === key).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    const tasks = mine.filter((e) => e.name === 'RunTask');
    if (!tasks.length) continue;
    const sum = (xs: TraceEvent[]) => ({ wall: xs.reduce((a, e) => a + (e.dur ?? 0), 0), cpu: xs.reduce((a, e) => a + (e.tdur ?? 0), 0) });
    const pagehide = mine.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'pagehide');
    const unload = mine.filter((e) => e.name === 'Document::DispatchUnloadEvents');
    const all = sum(tasks);
    out.push(`main thread ${key}: ${tasks.length} tasks, ${ms(all.wall)} wall, ${ms(all.cpu)} CPU`);
    out.push(`  leaving the previous page: pagehide ${ms(sum(pagehide).wall)} wall / ${ms(sum(pagehide).cpu)} CPU; unload events ${ms(sum(unload).wall)} / ${ms(sum(unload).cpu)}`);
    // The outermost event of each kind: skip events that sit inside an earlier one of the same kind.
    const parts: string[] = [];
    for (const [kind, names] of Object.entries(KINDS)) {
      let end = -1;
      const top: TraceEvent[] = [];
      for (const e of mine) {
        if (!names.includes(e.name) || e.ts < end) continue;
        top.push(e);
        end = e.ts + (e.dur ?? 0);
      }
      const s = sum(top);
      parts.push(`${kind} ${ms(s.wall)} / ${ms(s.cpu)}`);
    }
    out.push(`  wall / CPU: ${parts.join(', ')} (script includes the style and layout it forces)`);
    const longest = [...tasks].sort((a, b) => b.dur! - a.dur!).slice(0, 5);
    out.push(`  longest tasks (wall / CPU): ${longest.map((t) => `${ms(t.dur!)} / ${ms(t.tdur ?? 0)}`).join(', ')}`);
  }
  return out;
}

// `npx tsx bench/trace-summary.ts trace.json`
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) console.log(summariseOpenTrace(process.argv[2]!).join('\n'));
