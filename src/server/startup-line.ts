import type { StartupPhases } from './server';

/** A start's times in ms: `modules` and `total` count from the process's start (performance.now()). */
export interface StartTimes {
  modules: number;
  /** When scripts/start.mjs finished checking the build (absent under `npm run dev`). */
  buildCheck?: number;
  phases: StartupPhases;
  listen: number;
  total: number;
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * The line a start prints under the URL, e.g. `Started in 1.84 s: build check 0.03 s, modules 0.59 s,
 * database open 0.41 s, migrations 0.00 s (none needed), data 0.05 s, plugin registry 0.02 s, routes
 * 0.45 s, listen 0.01 s`. `npm run bench:start` reads its phases back (name, then seconds).
 */
export function startupLine(t: StartTimes): string {
  const parts = [
    ...(t.buildCheck !== undefined ? [`build check ${s(t.buildCheck)}`] : []),
    `modules ${s(t.modules - (t.buildCheck ?? 0))}`,
    `database open ${s(t.phases.databaseOpen)}`,
    `migrations ${s(t.phases.migrations)} (${t.phases.migrated ? `${t.phases.migrated} applied` : 'none needed'})`,
    `data ${s(t.phases.data)}`,
    `plugin registry ${s(t.phases.plugins)}`,
    `routes ${s(t.phases.routes)}`,
    `listen ${s(t.listen)}`,
  ];
  return `  Started in ${s(t.total)}: ${parts.join(', ')}`;
}
