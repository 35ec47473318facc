import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * The channels runs talk on between processes (issue 34):
 * - `weft_run_events`: run ids whose stream has new rows in the event log (./event-log.ts);
 * - `weft_run_stop`: a stop request for a run that goes on in some process (./stop.ts);
 * - `weft_run_stopped`: that process's answer;
 * - `weft_cache_*`: cached rows another process changed (../cache-notices.ts).
 */
export const BUS_CHANNELS = [
  'weft_run_events',
  'weft_run_stop',
  'weft_run_stopped',
  'weft_cache_api_keys',
  'weft_cache_callers',
  'weft_cache_models',
  'weft_cache_apps',
  'weft_cache_network_policy',
] as const;
export type BusChannel = (typeof BUS_CHANNELS)[number];

/** PostgreSQL's NOTIFY payload limit is 8000 bytes; what a message may carry stays below it. */
export const BUS_PAYLOAD_MAX = 7900;

/**
 * Messages between the server processes of one database. On a PostgreSQL server it is LISTEN/NOTIFY
 * (every process hears every message, delivered when the sending transaction commits); the embedded
 * database belongs to one process, where it is an in-process emitter with the same interface, so
 * the same code runs on both.
 */
export interface RunBus {
  /** Whether other processes hear this bus (a PostgreSQL server). */
  readonly shared: boolean;
  publish(channel: BusChannel, payload: string): Promise<void>;
  /** Listens until the returned function is called. */
  subscribe(channel: BusChannel, listener: (payload: string) => void): () => void;
  close(): Promise<void>;
}

class Listeners {
  private readonly emitter = new EventEmitter();
  constructor() {
    // Every open resume stream listens on weft_run_events: hundreds are normal.
    this.emitter.setMaxListeners(0);
  }
  add(channel: BusChannel, listener: (payload: string) => void): () => void {
    this.emitter.on(channel, listener);
    return () => this.emitter.off(channel, listener);
  }
  emit(channel: string, payload: string) {
    this.emitter.emit(channel, payload);
  }
}

/** The bus of one process (the embedded database): messages are delivered on a later tick, as NOTIFY's are. */
export function localBus(): RunBus {
  const listeners = new Listeners();
  return {
    shared: false,
    publish: async (channel, payload) => {
      setImmediate(() => listeners.emit(channel, payload));
    },
    subscribe: (channel, listener) => listeners.add(channel, listener),
    close: async () => {},
  };
}

/** How long a lost LISTEN connection waits before it connects again. */
const RECONNECT_MS = 1000;

/**
 * The bus over a PostgreSQL server: one connection of its own LISTENs on every channel (a pooled
 * connection cannot: it goes back to the pool); NOTIFY goes through the pool. A lost connection
 * is opened again after {@link RECONNECT_MS}; what was said meanwhile is not heard, which is why the
 * readers of the event log also look at it now and then (./event-log.ts).
 */
export async function pgBus(databaseUrl: string, db: Db, log: (e: unknown) => void): Promise<RunBus> {
  const { Client } = await import('pg');
  const listeners = new Listeners();
  let closing = false;
  let client: InstanceType<typeof Client> | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const c = new Client({ connectionString: databaseUrl });
    c.on('notification', (m) => listeners.emit(m.channel, m.payload ?? ''));
    const lost = (e?: unknown) => {
      if (closing || client !== c) return;
      client = undefined;
      if (e) log(e);
      c.end().catch(() => {});
      retry = setTimeout(() => void connect().catch(log), RECONNECT_MS);
      retry.unref();
    };
    c.on('error', lost);
    c.on('end', () => lost());
    client = c;
    try {
      await c.connect();
      await c.query(BUS_CHANNELS.map((ch) => `LISTEN ${ch}`).join('; '));
    } catch (e) {
      lost(e);
      throw e;
    }
  };
  await connect();
  return {
    shared: true,
    publish: async (channel, payload) => {
      await db.execute(sql`SELECT pg_notify(${channel}, ${payload})`);
    },
    subscribe: (channel, listener) => listeners.add(channel, listener),
    close: async () => {
      closing = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
