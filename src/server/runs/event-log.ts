import { sql } from 'drizzle-orm';
import type { RunCreatedEvent } from '../../../schemas/run-api';
import type { RunEvent } from '../../../schemas/run';
import type { ServerContext } from '../context';
import type { Db } from '../db/client';
import { runEvents } from '../db/schema';
import { BUS_PAYLOAD_MAX, type RunBus } from './bus';

/** How long an event waits to be written with the ones that follow it. */
const FLUSH_MS = 20;
/** Rows per INSERT statement (a busy server's batch is split). */
const BATCH_ROWS = 500;

type StreamEvent = RunCreatedEvent | RunEvent;

const texts = new WeakMap<object, string>();

/**
 * An event's JSON, made once: the stream's frame and the log's row share it (a chat answer is
 * hundreds of small events; serialising each twice would show in the first-token overhead).
 */
export function eventJson(e: StreamEvent): string {
  let s = texts.get(e);
  if (s === undefined) texts.set(e, (s = JSON.stringify(e)));
  return s;
}

/** The SSE frame of one event; `id` is its sequence number in the run (what Last-Event-ID names). */
// `event:` stays the first line, as before ids were added: simple readers look for it there.
export const sseFrame = (e: StreamEvent, id?: number) => `event: ${e.type}\n${id === undefined ? '' : `id: ${id}\n`}data: ${eventJson(e)}\n\n`;

/**
 * Writes each run's stream events to `run_events` (issue 34), so any process can replay a stream
 * after a reconnect. `append` only queues the row: the stream never waits for the database. Rows
 * are written every {@link FLUSH_MS} in one statement per batch (one batch at a time, so a run's
 * rows land in order and a reader never sees a later one before an earlier), and each batch then
 * tells the bus which runs have new rows. A batch whose write fails is logged and dropped: the
 * live stream already has those events, and a resumed one ends on the run's stored state.
 */
export class RunEventLog {
  private rows: { run_id: string; seq: number; event: unknown }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly bus: RunBus,
    private readonly log: (e: unknown) => void,
  ) {}

  append(runId: string, seq: number, e: StreamEvent): void {
    this.rows.push({ run_id: runId, seq, event: e });
    if (!this.timer && !this.writing) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Writes what is queued now (and what comes in meanwhile); resolves when nothing is left. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.writing) await this.writing;
    if (!this.rows.length) return;
    const rows = this.rows;
    this.rows = [];
    this.writing = this.write(rows).finally(() => {
      this.writing = undefined;
      if (this.rows.length && !this.timer) {
        this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
        this.timer.unref();
      }
    });
    await this.writing;
  }

  private async write(rows: { run_id: string; seq: number; event: unknown }[]): Promise<void> {
    try {
      for (let i = 0; i < rows.length; i += BATCH_ROWS) {
        // One parameter (a JSON array) whatever the batch's size: both drivers take it the same way.
        const part = rows.slice(i, i + BATCH_ROWS).map((r) => `{"run_id":"${r.run_id}","seq":${r.seq},"event":${eventJson(r.event as StreamEvent)}}`);
        await this.db.execute(sql`INSERT INTO ${runEvents} (run_id, seq, event)
          SELECT r.run_id, r.seq, r.event FROM json_to_recordset(${`[${part.join(',')}]`}::json) AS r(run_id uuid, seq int, event json)
          ON CONFLICT DO NOTHING`);
      }
    } catch (e) {
      this.log(e);
      return;
    }
    const ids = [...new Set(rows.map((r) => r.run_id))];
    let payload = '';
    for (const id of ids) {
      if (payload.length + id.length + 1 > BUS_PAYLOAD_MAX) {
        await this.bus.publish('weft_run_events', payload).catch(this.log);
        payload = '';
      }
      payload += payload ? `,${id}` : id;
    }
    if (payload) await this.bus.publish('weft_run_events', payload).catch(this.log);
  }
}

const logs = new WeakMap<Db, RunEventLog>();

/** The event log writer of a server's database (one per database, shared by the apps on it). */
export function runEventLog(ctx: Pick<ServerContext, 'db' | 'bus'>): RunEventLog {
  let l = logs.get(ctx.db);
  if (!l) {
    l = new RunEventLog(ctx.db, ctx.bus, (e) => console.error('[weft] writing run events failed:', e));
    logs.set(ctx.db, l);
  }
  return l;
}
