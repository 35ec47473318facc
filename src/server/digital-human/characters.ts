import { randomUUID } from 'node:crypto';
import { and, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import { PORTRAIT_EXTENSIONS, PORTRAIT_MIME_TYPES, type Character, type CharacterCreateBody, type CharacterListQuery, type CharacterMedia, type CharacterUpdateBody, type PortalCharacter } from '../../../schemas/digital-human';
import type { PortalAppDetail } from '../../../schemas/portal';
import { ErrorCode } from '../../../schemas/errors';
import type { ServerContext } from '../context';
import { requireMembership, UUID_RE } from '../context';
import { apps, characters, digitalHumanApps, files } from '../db/schema';
import { AppError, badRequest, notFoundOrForeign } from '../errors';
import { BUILDERS } from '../services/apps';
import { forgetDraftRows } from '../services/cache-generations';
import { fileBytes, readableFile, storeUpload } from '../services/files';
import { rasterisePortrait } from './svg-portrait';
import { contains, MANAGERS, nothingToChange, page, type Scope } from '../services/workspace-resources';

/**
 * Characters of a project space (issue 31): name, look (a portrait uploaded by the icon rules, or a
 * short idle clip), voice, persona and greeting. Every member reads; builders (every member, as for
 * apps) create and change; owner and admin delete, and only a character no app speaks as.
 */

type Row = typeof characters.$inferSelect;
type FileRow = typeof files.$inferSelect;

/** The public URL of a portrait or clip (served without a token, like app icons: routes/common/files.ts). */
export const mediaUrl = (fileId: string) => `/api/v1/common/files/${encodeURIComponent(fileId)}/icon`;

const media = (f: Pick<FileRow, 'id' | 'mimeType'> | null | undefined): CharacterMedia | null =>
  f ? { file_id: f.id, url: mediaUrl(f.id), mime_type: f.mimeType } : null;

async function filesOf(ctx: ServerContext, rows: Row[]) {
  const ids = rows.flatMap((r) => [r.portraitFileId, r.idleClipFileId]).filter((x): x is string => Boolean(x));
  if (!ids.length) return new Map<string, FileRow>();
  const found = await ctx.db.select().from(files).where(inArray(files.id, ids));
  return new Map(found.map((f) => [f.id, f]));
}

async function appCounts(ctx: ServerContext, ids: string[]) {
  if (!ids.length) return new Map<string, number>();
  const rows = await ctx.db
    .select({ id: digitalHumanApps.characterId, n: sql<number>`count(*)::int` })
    .from(digitalHumanApps)
    .where(inArray(digitalHumanApps.characterId, ids))
    .groupBy(digitalHumanApps.characterId);
  return new Map(rows.map((r) => [r.id!, Number(r.n)]));
}

export async function toCharacters(ctx: ServerContext, rows: Row[]): Promise<Character[]> {
  const [byFile, counts] = await Promise.all([filesOf(ctx, rows), appCounts(ctx, rows.map((r) => r.id))]);
  return rows.map((r) => ({
    id: r.id,
    workspace_id: r.workspaceId,
    name: r.name,
    portrait: media(r.portraitFileId ? byFile.get(r.portraitFileId) : null),
    idle_clip: media(r.idleClipFileId ? byFile.get(r.idleClipFileId) : null),
    voice: r.voice,
    persona: r.persona,
    greeting: r.greeting,
    app_count: counts.get(r.id) ?? 0,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }));
}

const inScope = (s: Scope) => and(eq(characters.workspaceId, s.workspaceId), eq(characters.tenantId, s.caller.tenantId));

export async function characterRow(ctx: ServerContext, s: Scope, id: string): Promise<Row> {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Character', id);
  const [row] = await ctx.db.select().from(characters).where(and(eq(characters.id, id), inScope(s)));
  if (!row) throw notFoundOrForeign('Character', id);
  return row;
}

/**
 * A portrait must be an 'icon' upload (image types, at most 5 MB, checked bytes) and a clip a 'clip'
 * upload, that the caller may read: anything else is VALIDATION-1000 on the field.
 */
async function checkMedia(ctx: ServerContext, s: Scope, field: 'portrait_file_id' | 'idle_clip_file_id', id: string | null | undefined): Promise<FileRow | null> {
  if (!id) return null;
  const want = field === 'portrait_file_id' ? 'icon' : 'clip';
  let row: FileRow | null = null;
  try {
    row = await readableFile(ctx, s.caller, id);
  } catch {
    row = null;
  }
  if (!row || row.bizType !== want) {
    throw badRequest(`${field === 'portrait_file_id' ? 'The portrait' : 'The idle clip'} must be a file uploaded as '${want}'`, [{ path: `body/${field}`, message: 'invalid' }]);
  }
  if (field === 'portrait_file_id' && !(PORTRAIT_MIME_TYPES as readonly string[]).includes(row.mimeType)) {
    throw new AppError(400, ErrorCode.DH_PORTRAIT_FORMAT, `A portrait must be a ${PORTRAIT_EXTENSIONS.join(', ')} image`, [{ path: `body/${field}`, message: 'format' }]);
  }
  return row;
}

/**
 * The portrait file a character keeps: the one given, or for an SVG a PNG drawn from it (svg-portrait.ts)
 * and stored as an icon of the space, since the video encoder reads raster images only. Drawn before
 * anything is written: an SVG that cannot be drawn (DH-1051/1052) changes nothing.
 */
async function portraitFile(ctx: ServerContext, s: Scope, id: string | null | undefined): Promise<string | null | undefined> {
  const row = await checkMedia(ctx, s, 'portrait_file_id', id);
  if (!row || row.mimeType !== 'image/svg+xml') return id;
  const { png } = await rasterisePortrait(await fileBytes(ctx, row));
  const name = `${row.name.replace(/\.svg$/i, '') || 'portrait'}.png`;
  return (await storeUpload(ctx, s.caller, s.workspaceId, { bizType: 'icon', name, bytes: png })).id;
}

export async function listCharacters(ctx: ServerContext, s: Scope, q: CharacterListQuery) {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const conds: SQL[] = [inScope(s)!];
  if (q.name) conds.push(ilike(characters.name, contains(q.name)));
  const where = and(...conds);
  const [{ total }] = await ctx.db.select({ total: sql<number>`count(*)::int` }).from(characters).where(where);
  const rows = await ctx.db
    .select()
    .from(characters)
    .where(where)
    .orderBy(desc(characters.updatedAt), desc(characters.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return page(await toCharacters(ctx, rows), total, q);
}

export async function getCharacter(ctx: ServerContext, s: Scope, id: string): Promise<Character> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  return (await toCharacters(ctx, [await characterRow(ctx, s, id)]))[0]!;
}

export async function createCharacter(ctx: ServerContext, s: Scope, input: Omit<CharacterCreateBody, 'id'>): Promise<Character> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, BUILDERS);
  await checkMedia(ctx, s, 'idle_clip_file_id', input.idle_clip_file_id);
  const portraitFileId = await portraitFile(ctx, s, input.portrait_file_id);
  const [row] = await ctx.db
    .insert(characters)
    .values({
      id: randomUUID(),
      tenantId: s.caller.tenantId,
      workspaceId: s.workspaceId,
      name: input.name,
      portraitFileId,
      idleClipFileId: input.idle_clip_file_id,
      voice: input.voice,
      persona: input.persona,
      greeting: input.greeting,
      createdBy: s.caller.userId,
    })
    .returning();
  return (await toCharacters(ctx, [row!]))[0]!;
}

export async function updateCharacter(ctx: ServerContext, s: Scope, body: CharacterUpdateBody): Promise<Character> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, BUILDERS);
  const { id, ...rest } = body;
  if (Object.values(rest).every((v) => v === undefined)) throw nothingToChange();
  await characterRow(ctx, s, id!);
  await checkMedia(ctx, s, 'idle_clip_file_id', rest.idle_clip_file_id);
  const portraitFileId = await portraitFile(ctx, s, rest.portrait_file_id);
  const [row] = await ctx.db
    .update(characters)
    .set({
      name: rest.name,
      portraitFileId,
      idleClipFileId: rest.idle_clip_file_id,
      voice: rest.voice,
      persona: rest.persona,
      greeting: rest.greeting,
      updatedAt: new Date(),
    })
    .where(and(eq(characters.id, id!), inScope(s)))
    .returning();
  // The portal keeps an app with its character's persona (runs/portal-access.ts).
  if (rest.persona !== undefined) forgetDraftRows();
  return (await toCharacters(ctx, [row!]))[0]!;
}

/** Owner and admin; a character that apps speak as is refused (DH-1004, `data.apps`). */
export async function deleteCharacter(ctx: ServerContext, s: Scope, id: string): Promise<void> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  await characterRow(ctx, s, id);
  const users = await ctx.db
    .select({ id: apps.id, name: apps.name })
    .from(digitalHumanApps)
    .innerJoin(apps, eq(apps.id, digitalHumanApps.appId))
    .where(eq(digitalHumanApps.characterId, id));
  if (users.length) throw new AppError(409, ErrorCode.DH_CHARACTER_IN_USE, `The character is used by ${users.length} app(s): give them another character first`, { apps: users });
  await ctx.db.delete(characters).where(and(eq(characters.id, id), inScope(s)));
}

/** The portal's view of an app's character (null when the app is no digital human or has none). */
export async function portalCharacterOf(ctx: Pick<ServerContext, 'db'>, appId: string): Promise<(PortalCharacter & { persona: string }) | null> {
  const [row] = await ctx.db
    .select({ c: characters })
    .from(digitalHumanApps)
    .innerJoin(characters, eq(characters.id, digitalHumanApps.characterId))
    .where(eq(digitalHumanApps.appId, appId))
    .limit(1);
  if (!row) return null;
  const c = row.c;
  return {
    name: c.name,
    portrait_url: c.portraitFileId ? mediaUrl(c.portraitFileId) : null,
    idle_clip_url: c.idleClipFileId ? mediaUrl(c.idleClipFileId) : null,
    voice: c.voice,
    greeting: c.greeting,
    persona: c.persona,
  };
}

/**
 * The portal detail with the app's character (issue 31): its look, voice and greeting for a
 * speaking avatar (not its persona: that stays on the server), and the greeting as the opening
 * statement when the app has none of its own.
 */
export function withCharacter(detail: PortalAppDetail, c: Awaited<ReturnType<typeof portalCharacterOf>>): PortalAppDetail {
  if (!c) return { ...detail, character: null };
  const { persona: _persona, ...character } = c;
  const opening = detail.features.opening_statement?.trim() ? detail.features : { ...detail.features, opening_statement: c.greeting };
  return { ...detail, features: c.greeting ? opening : detail.features, character };
}

/**
 * The persona a portal chat runs with: the app's character's (read with the app: PortalTarget), then
 * the one the user set for the conversation.
 */
export function chatPersona(appPersona: string | null, conversationPersona: string | undefined): string | undefined {
  const joined = [appPersona, conversationPersona].filter((p) => p?.trim()).join('\n\n');
  return joined || undefined;
}

/**
 * What a video is drawn from: the idle clip (looped under the speech) when the character has one, as
 * the portal's avatar plays it; else the portrait (an SVG one was drawn into a PNG when it was set:
 * the encoder reads raster images only); null when neither.
 */
export async function lookOf(ctx: Pick<ServerContext, 'db'>, characterId: string | null): Promise<string | null> {
  if (!characterId) return null;
  const [c] = await ctx.db
    .select({ portrait: characters.portraitFileId, clip: characters.idleClipFileId, portraitType: files.mimeType })
    .from(characters)
    .leftJoin(files, eq(files.id, characters.portraitFileId))
    .where(eq(characters.id, characterId));
  if (c?.clip) return c.clip;
  return c?.portrait && c.portraitType !== 'image/svg+xml' ? c.portrait : null;
}
