/**
 * What `npm run bench:portal` measures (./portal.ts): one server process on the embedded database (the
 * default), or (`--processes N`, issue 34) N server processes on one PostgreSQL server behind the API
 * tests' loopback proxy (tests/api/scale-kit.ts: real `src/server/main.ts` processes, requests spread
 * round robin as a balancer does). The PostgreSQL server is DATABASE_URL's, else a throwaway one
 * (scripts/with-postgres.mjs). The bench's own studio sets the database up and takes no jobs.
 */
import fs from 'node:fs';
import { Settings } from '../../src/server/settings';
import { createStudio, type Studio } from '../../src/server/server';
import { runRegistry } from '../../src/server/runs/registry';
import { startCluster } from '../api/scale-kit';
import { threadCpu, threadCpuSince } from './cpu';
import { startEnv, startFlags } from './start-flags';

export interface BenchServers {
  /** What the clients reach: the server, or the proxy in front of the processes. */
  base: string;
  /** The studio whose database the set-up writes to. */
  studio: Studio;
  /** A sentence for the report's first line. */
  label: string;
  /** Waits until the servers have nothing running (after a round's streams ended at the client). */
  settle(): Promise<void>;
  /** Starts counting CPU; the answer stops and prints it, per stream. */
  cpu(): (streams: number, wallMs: number) => string[];
  /** Resident memory of each server process, MB. */
  rss(): number[];
  close(): Promise<void>;
}

export interface ServeOptions {
  processes: number;
  adminPassword: string;
  /** The fake provider's host:port, the one destination the outbound policy opens. */
  providerHost: string;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** A process's CPU milliseconds so far (utime + stime, from /proc; 0 once it ended). */
function processCpu(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

function processRss(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb) / 1024;
  } catch {
    return NaN;
  }
}

/** The server's node flags, as the report's first line says them. */
const flagsLabel = `node ${startFlags.join(' ') || '(no flags)'} as npm start`;

const fmt = (n: number) => n.toFixed(1).padStart(7);

export async function serve(o: ServeOptions): Promise<BenchServers> {
  const base = { adminUser: 'admin', adminPassword: o.adminPassword, clientDir: '/nonexistent', logLevel: 'silent', outboundAllow: o.providerHost };
  if (o.processes <= 1) {
    const studio = await createStudio(Settings.parse(base), { inMemory: true });
    const url = await studio.app.listen({ port: 0, host: '127.0.0.1' });
    return {
      base: url,
      studio,
      label: `one server process, embedded database, ${flagsLabel}`,
      async settle() {
        const registry = runRegistry(studio.ctx);
        while (registry.size) await new Promise((r) => setTimeout(r, 10));
      },
      cpu() {
        const cpu0 = process.cpuUsage();
        const threads0 = threadCpu();
        return (streams, wall) => {
          const cpu = process.cpuUsage(cpu0);
          const threads = threadCpuSince(threads0);
          const ms = (cpu.user + cpu.system) / 1000;
          return [
            `server process CPU       ${fmt(ms / streams)} ms a stream (${((ms / wall) * 100).toFixed(0)}% of one core over the round: less sensitive to a busy machine than the latencies)`,
            ...(threads ? [`  by thread                ${fmt(threads.main / streams)} ms main thread, ${fmt(threads.others / streams)} ms workers (database, sandboxes) a stream`] : []),
          ];
        };
      },
      rss: () => [process.memoryUsage().rss / 2 ** 20],
      close: () => studio.close(),
    };
  }

  let pg: { url: string; stop(): void } | undefined;
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const { startPostgres } = (await import('../../scripts/with-postgres.mjs' as string)) as { startPostgres(): Promise<{ url: string; stop(): void }> };
    pg = await startPostgres();
    databaseUrl = pg.url;
  }
  const studio = await createStudio(Settings.parse({ ...base, databaseUrl, jobsWork: 'false' }));
  const cluster = await startCluster({ studio }, o.processes, { ...startEnv, WEFT_OUTBOUND_ALLOW: o.providerHost }, startFlags).catch(async (e) => {
    await studio.close();
    pg?.stop();
    throw e;
  });
  cluster.spread();
  return {
    base: cluster.url,
    studio,
    label: `${o.processes} server processes on one PostgreSQL server behind a loopback proxy (round robin), ${flagsLabel}`,
    // Each stream ended at the client after its run's last event: the processes' runs end with it.
    settle: async () => {},
    cpu() {
      const before = cluster.pids.map(processCpu);
      return (streams, wall) => {
        const used = cluster.pids.map((pid, i) => processCpu(pid) - before[i]);
        const total = used.reduce((a, b) => a + b, 0);
        return [
          `server processes' CPU    ${fmt(total / streams)} ms a stream in all (${((total / wall) * 100).toFixed(0)}% of one core over the round); by process ${used.map((u) => `${(u / streams).toFixed(1)}`).join(' / ')} ms`,
        ];
      };
    },
    rss: () => cluster.pids.map(processRss),
    async close() {
      await cluster.stop();
      await studio.close();
      pg?.stop();
    },
  };
}
