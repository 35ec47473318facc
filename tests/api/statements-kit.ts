import type { Harness } from './harness';

/**
 * Counts the statements sent to the database while `fn` runs, by the tables they name: the
 * embedded database's client (query, exec, transaction) or node-postgres's pool (query, and
 * connect for a transaction, which takes a client of its own). `transactions` counts transactions begun.
 */
export async function countStatements(h: Harness, fn: () => Promise<void>): Promise<{ texts: string[]; transactions: number }> {
  const client = (h.studio.ctx.db as unknown as { $client: Record<string, unknown> }).$client;
  const out = { texts: [] as string[], transactions: 0 };
  const restore: [string, unknown][] = [];
  const wrap = (name: string, seen: (args: unknown[]) => void) => {
    const original = client[name];
    if (typeof original !== 'function') return;
    restore.push([name, Object.prototype.hasOwnProperty.call(client, name) ? original : undefined]);
    client[name] = function (this: unknown, ...args: unknown[]) {
      seen(args);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  };
  const text = (a: unknown) => (typeof a === 'string' ? a : ((a as { text?: string })?.text ?? ''));
  wrap('query', (args) => out.texts.push(text(args[0])));
  wrap('exec', (args) => out.texts.push(text(args[0])));
  wrap('transaction', () => out.transactions++);
  // pg's Pool.query takes a client through connect(callback) itself; drizzle's transaction calls connect() bare.
  wrap('connect', (args) => {
    if (typeof args[0] !== 'function') out.transactions++;
  });
  try {
    await fn();
  } finally {
    for (const [name, original] of restore) {
      if (original === undefined) delete client[name];
      else client[name] = original;
    }
  }
  return out;
}
