import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { GBI_SAMPLE_VALUES, type GbiSourceDetail } from '../../../schemas/gbi';
import type { ServerContext } from '../context';
import { requireMembership } from '../context';
import { gbiColumns, gbiSources, gbiTables } from '../db/schema';
import { connectionOf } from '../services/databases';
import { MANAGERS, type Scope } from '../services/workspace-resources';
import { describeDuckDb, sourceFile } from './duckdb-store';
import { ENGINES } from './engines';
import type { SourceTableInfo } from './source-rows';
import { getSource, sourceRow, tablesOf, unreadable } from './sources';

/**
 * Re-reads a source (issue 30, "re-read samples"): its tables and columns as they are now, with
 * fresh sample values and row counts. Tables and columns that still exist (same name) keep their
 * ids, business names and descriptions; new ones are added, vanished ones removed. Owner and admin.
 */
export async function refreshSource(ctx: ServerContext, s: Scope, id: string): Promise<GbiSourceDetail> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const row = await sourceRow(ctx, s, id);
  let read: SourceTableInfo[];
  if (row.kind === 'spreadsheet') {
    read = await describeDuckDb(sourceFile(ctx.settings.dataDir, row.tenantId, row.id), GBI_SAMPLE_VALUES);
  } else {
    const { database, settings } = await connectionOf(ctx, s, row.databaseId!);
    try {
      read = await ENGINES[database.type].describe(settings, ctx.outbound, GBI_SAMPLE_VALUES);
    } catch (e) {
      throw unreadable(database.name, e);
    }
  }
  const known = await tablesOf(ctx, row.id);
  await ctx.db.transaction(async (tx) => {
    const gone = known.filter((t) => !read.some((r) => r.name === t.name)).map((t) => t.id);
    if (gone.length) {
      await tx.delete(gbiColumns).where(inArray(gbiColumns.tableId, gone));
      await tx.delete(gbiTables).where(inArray(gbiTables.id, gone));
    }
    for (const [position, t] of read.entries()) {
      const old = known.find((k) => k.name === t.name);
      const tableId = old?.id ?? randomUUID();
      if (old) await tx.update(gbiTables).set({ rowCount: t.rowCount, position }).where(eq(gbiTables.id, tableId));
      else await tx.insert(gbiTables).values({ id: tableId, sourceId: row.id, name: t.name, rowCount: t.rowCount, position });
      const vanished = (old?.columns ?? []).filter((c) => !t.columns.some((x) => x.name === c.name)).map((c) => c.id);
      if (vanished.length) await tx.delete(gbiColumns).where(inArray(gbiColumns.id, vanished));
      for (const [i, c] of t.columns.entries()) {
        const was = old?.columns.find((x) => x.name === c.name);
        if (was) await tx.update(gbiColumns).set({ dataType: c.dataType, sampleValues: c.samples, position: i }).where(eq(gbiColumns.id, was.id));
        else await tx.insert(gbiColumns).values({ id: randomUUID(), tableId, name: c.name, dataType: c.dataType, sampleValues: c.samples, position: i });
      }
    }
    await tx.update(gbiSources).set({ updatedAt: new Date() }).where(eq(gbiSources.id, row.id));
  });
  return getSource(ctx, s, id);
}
