import type { Db } from '../db/client';
import { combine, executeRaw, type RawSql } from './raw-sql';

/**
 * Writes whole runs (runs/recorder.ts "whole" mode: a run that ended before anything of it was
 * written) several at a time: the statements of the runs that end within one turn of the event loop,
 * or while the previous batch is being written, go to the database as ONE statement of data-modifying
 * CTEs. On the embedded database every statement is work on the server's own thread: a run of a
 * short workflow is a handful of rows, and one statement for many runs is what lets it keep up with
 * a thousand runs a second. A batch that fails is written again run by run, so one bad run (its
 * conversation deleted meanwhile) costs only itself.
 */

/** Runs in one statement at most (a run is 2 to 5 inserts; a statement takes at most 65,535 parameters). */
const BATCH_MAX = 64;

interface Job {
  parts: RawSql[];
  resolve: () => void;
  reject: (e: unknown) => void;
}

export class RunWriter {
  private queue: Job[] = [];
  private busy = false;

  constructor(private readonly db: Db) {}

  /** Writes the run's statements (each an INSERT or UPDATE) together; settles once they are written. */
  write(parts: RawSql[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ parts, resolve, reject });
      if (!this.busy) {
        this.busy = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0, BATCH_MAX);
      try {
        await this.execute(batch.flatMap((j) => j.parts));
        for (const j of batch) j.resolve();
      } catch (e) {
        if (batch.length === 1) batch[0]!.reject(e);
        else
          for (const j of batch) {
            try {
              await this.execute(j.parts);
              j.resolve();
            } catch (one) {
              j.reject(one);
            }
          }
      }
    }
    this.busy = false;
  }

  private execute(parts: RawSql[]) {
    return executeRaw(this.db, combine(parts));
  }
}

const writers = new WeakMap<object, RunWriter>();

/** The run writer of a database (one per database, so its runs share batches). */
export function runWriterOf(db: Db): RunWriter {
  let w = writers.get(db);
  if (!w) writers.set(db, (w = new RunWriter(db)));
  return w;
}
