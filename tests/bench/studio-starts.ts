/**
 * `npx tsx tests/bench/studio-starts.ts` (figures only): the CPU of the API tests' studio, as
 * tests/api/harness.ts starts it (createStudio on the migrated template, in memory, a sign-in, close),
 * N times in one process (WEFT_BENCH_ROUNDS, default 10). The template is made once (as the api
 * project's global setup makes it), outside the measured rounds. Prints CPU (user+sys) per start.
 */
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createStudio } from '../../src/server/server';
import { Settings } from '../../src/server/settings';
import setup from '../api/global-setup';
import { DEFAULT_TENANT_ID } from '../../schemas/common';

const ROUNDS = Number(process.env.WEFT_BENCH_ROUNDS ?? 10);
const uptime = () => spawnSync('uptime', { encoding: 'utf8' }).stdout.trim();

let template = process.env.WEFT_BENCH_TEMPLATE ?? '';
const stopTemplate = process.env.WEFT_BENCH_TEMPLATE ? undefined : await setup({ provide: (_k: string, v: string) => (template = v) } as never);
const settings = () => Settings.parse({ adminUser: 'admin', adminPassword: 'Admin12345', clientDir: '/nonexistent', logLevel: 'silent' });
const one = async () => {
  const studio = await createStudio(settings(), { loadDataDir: fs.readFileSync(template), inMemory: true, warmSandbox: process.env.WEFT_BENCH_WARM === '1' });
  const r = await studio.app.inject({ method: 'POST', url: '/api/v1/console/base/login', payload: { tenantId: DEFAULT_TENANT_ID, username: 'admin', password: 'Admin12345' } as never });
  if (r.statusCode !== 200) throw new Error(r.body);
  await studio.close();
};
await one(); // the modules' first load, outside the figure
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < ROUNDS; i++) await one();
const cpu = process.cpuUsage(cpu0);
const wall = performance.now() - t0;
console.log(`${ROUNDS} studio starts: ${((cpu.user + cpu.system) / 1000 / ROUNDS).toFixed(0)} ms CPU each (user ${(cpu.user / 1000 / ROUNDS).toFixed(0)}, sys ${(cpu.system / 1000 / ROUNDS).toFixed(0)}; this thread and its workers), ${(wall / ROUNDS).toFixed(0)} ms wall each | ${uptime()}`);
await (stopTemplate as (() => void) | undefined)?.();
