/**
 * A PostgreSQL server for the files that talk to one besides the studio's own database (a GBI source,
 * the connection checks' target, a pool's connections ended by the server): DATABASE_URL's on the
 * server run; TEST_PG_SERVER_URL's on the embedded run of `npm test -- api`, which starts one for all
 * of them (one initdb instead of one per file); else one started for this file alone, which `stop` stops.
 */
export async function postgresServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const given = process.env.DATABASE_URL ?? process.env.TEST_PG_SERVER_URL;
  if (given) return { url: given, stop: async () => {} };
  const { startPostgres } = (await import('../../scripts/with-postgres.mjs' as string)) as { startPostgres: () => Promise<{ url: string; stop: () => void }> };
  const started = await startPostgres();
  return { url: started.url, stop: async () => started.stop() };
}
