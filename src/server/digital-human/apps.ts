import { eq } from 'drizzle-orm';
import { KIND_APP_TYPES, type DigitalHumanApp, type DigitalHumanSetBody } from '../../../schemas/digital-human';
import { ErrorCode } from '../../../schemas/errors';
import type { App } from '../../../schemas/app';
import type { ServerContext } from '../context';
import { requireMembership } from '../context';
import { characters, digitalHumanApps } from '../db/schema';
import { AppError } from '../errors';
import { appView, BUILDERS } from '../services/apps';
import { forgetDraftRows } from '../services/cache-generations';
import type { Scope } from '../services/workspace-resources';
import { characterRow, toCharacters } from './characters';

/**
 * Apps as digital humans (issue 31): a chatflow or agent app that answers as a character
 * (`conversation`), or a workflow app whose broadcasts are videos of it (`broadcast`). One row per
 * app in digital_human_apps; the app itself and its four modes are unchanged.
 */

/** The app (in the caller's scope) and its digital-human row, if any. */
export async function appAndRow(ctx: ServerContext, s: Scope, appId: string): Promise<{ app: App; row: typeof digitalHumanApps.$inferSelect | null }> {
  const app = await appView(ctx, s, appId);
  const [row] = await ctx.db.select().from(digitalHumanApps).where(eq(digitalHumanApps.appId, app.id));
  return { app, row: row ?? null };
}

async function view(ctx: ServerContext, row: typeof digitalHumanApps.$inferSelect): Promise<DigitalHumanApp> {
  const [c] = row.characterId ? await ctx.db.select().from(characters).where(eq(characters.id, row.characterId)) : [];
  return { app_id: row.appId, kind: row.kind, character: c ? (await toCharacters(ctx, [c]))[0]! : null, updated_at: row.updatedAt.toISOString() };
}

/** Any member: the app's kind and character, or null when it is not a digital human. */
export async function getDigitalHuman(ctx: ServerContext, s: Scope, appId: string): Promise<DigitalHumanApp | null> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const { row } = await appAndRow(ctx, s, appId);
  return row ? view(ctx, row) : null;
}

/** Builders: make the app a digital human of a kind that fits its type (DH-1001), speaking as a character of its space. */
export async function setDigitalHuman(ctx: ServerContext, s: Scope, appId: string, body: DigitalHumanSetBody): Promise<DigitalHumanApp> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, BUILDERS);
  const { app } = await appAndRow(ctx, s, appId);
  if (!KIND_APP_TYPES[body.kind].includes(app.type)) {
    throw new AppError(400, ErrorCode.DH_KIND_MISMATCH, `A ${body.kind} digital human needs a ${KIND_APP_TYPES[body.kind].join(' or ')} app; this app is a ${app.type}`, { type: app.type, kind: body.kind });
  }
  if (body.character_id) await characterRow(ctx, s, body.character_id);
  const values = { appId: app.id, tenantId: s.caller.tenantId, kind: body.kind, characterId: body.character_id, updatedAt: new Date() };
  const [row] = await ctx.db
    .insert(digitalHumanApps)
    .values(values)
    .onConflictDoUpdate({ target: digitalHumanApps.appId, set: { kind: values.kind, characterId: values.characterId, updatedAt: values.updatedAt } })
    .returning();
  // The portal keeps an app with its character's persona (runs/portal-access.ts).
  forgetDraftRows();
  return view(ctx, row!);
}

/** Builders: the app is an ordinary app again (its broadcasts stay until the app is deleted). */
export async function clearDigitalHuman(ctx: ServerContext, s: Scope, appId: string): Promise<void> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, BUILDERS);
  const { app } = await appAndRow(ctx, s, appId);
  await ctx.db.delete(digitalHumanApps).where(eq(digitalHumanApps.appId, app.id));
  forgetDraftRows();
}
