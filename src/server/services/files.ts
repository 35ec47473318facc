import { createHash, randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { requireMembership, UUID_RE, type Caller } from '../context';
import { conversations, files, messages } from '../db/schema';
import { badRequest, notFoundOrForeign } from '../errors';
import { ICON_FILE_TYPES, type FileBizType, type FileInfo, type UploadedFile } from '../../../schemas/knowledge';
import type { RunFileRef } from '../../../schemas/run-api';
import { CLIP_FILE_TYPES, CLIP_MAX_MB } from '../../../schemas/digital-human';
import { extensionOf, KNOWLEDGE_FILE_TYPES } from '../knowledge/parse';
import { fileStorage, storageKeyOf } from '../knowledge/storage';

/**
 * Uploaded files (spec 7.5 files): knowledge files ('dataset'), debug-run and chat attachments, and
 * icons. Bytes go to the data directory's file storage; the row keeps name, size, type and checksum.
 * A file belongs to its uploader and, when the upload named one, to a workspace: see readableFile for
 * who reads it. Icons are also served without a token (GET /common/files/:id/icon), since an <img>
 * cannot send one: only image types are accepted and served there.
 */

export type FileRow = typeof files.$inferSelect;

/** Icon uploads: at most 5 MB (spec 5). */
export const ICON_MAX_MB = 5;

const MIME: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  bmp: 'image/bmp',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  json: 'application/json',
  html: 'text/html',
  mp4: 'video/mp4',
  webm: 'video/webm',
};

/** The MIME type stored for a file name (by extension; the client's claim is not trusted). */
export const mimeOf = (name: string) => MIME[extensionOf(name)] ?? 'application/octet-stream';

/** The size limit of a business type in MB: the configured upload limit, icons at most 5 MB. */
export function limitMbOf(settings: ServerContext['settings'], biz: FileBizType): number {
  if (biz === 'clip') return Math.min(CLIP_MAX_MB, settings.uploadMaxMb);
  return biz === 'icon' ? Math.min(ICON_MAX_MB, settings.uploadMaxMb) : settings.uploadMaxMb;
}

/** Whether the bytes really are the image their extension says (so an icon never serves HTML). */
export function looksLikeImage(ext: string, b: Buffer): boolean {
  const starts = (...sig: number[]) => sig.every((v, i) => b[i] === v);
  switch (ext) {
    case 'png':
      return starts(0x89, 0x50, 0x4e, 0x47);
    case 'jpg':
    case 'jpeg':
      return starts(0xff, 0xd8, 0xff);
    case 'gif':
      return starts(0x47, 0x49, 0x46, 0x38);
    case 'bmp':
      return starts(0x42, 0x4d);
    case 'webp':
      return starts(0x52, 0x49, 0x46, 0x46) && b.subarray(8, 12).toString('latin1') === 'WEBP';
    case 'svg':
      return /<svg[\s>]/i.test(b.subarray(0, 4096).toString('utf8'));
    // Idle clips (biz_type 'clip'): an ISO media file's `ftyp` box, or WebM's EBML header.
    case 'mp4':
      return b.subarray(4, 8).toString('latin1') === 'ftyp';
    case 'webm':
      return starts(0x1a, 0x45, 0xdf, 0xa3);
    default:
      return false;
  }
}

const list = (xs: readonly string[]) => xs.map((x) => `.${x}`).join(' ');

/** Checks name, type and size for the business type; VALIDATION-1000 with a clear message otherwise. */
export function checkUpload(settings: ServerContext['settings'], biz: FileBizType, name: string, bytes: Buffer) {
  const ext = extensionOf(name);
  if (!name.trim() || name.length > 255) throw badRequest('The file name must have 1 to 255 characters');
  if (bytes.length === 0) throw badRequest(`The file '${name}' is empty`);
  const max = limitMbOf(settings, biz);
  if (bytes.length > max * 1024 * 1024) throw badRequest(`The file '${name}' is too large: at most ${max} MB`, { max_mb: max });
  if (biz === 'dataset') {
    const all = [...KNOWLEDGE_FILE_TYPES.text, ...KNOWLEDGE_FILE_TYPES.table] as string[];
    if (!all.includes(ext)) throw badRequest(`Unsupported file type '${ext ? '.' + ext : name}': knowledge files can be ${list(all)}`);
  }
  if (biz === 'icon') {
    if (!(ICON_FILE_TYPES as readonly string[]).includes(ext)) throw badRequest(`Unsupported icon type '${ext ? '.' + ext : name}': icons can be ${list(ICON_FILE_TYPES)}`);
    if (!looksLikeImage(ext, bytes)) throw badRequest(`The file '${name}' is not a valid .${ext} image`);
  }
  if (biz === 'clip') {
    if (!(CLIP_FILE_TYPES as readonly string[]).includes(ext)) throw badRequest(`Unsupported clip type '${ext ? '.' + ext : name}': idle clips can be ${list(CLIP_FILE_TYPES)}`);
    if (!looksLikeImage(ext, bytes)) throw badRequest(`The file '${name}' is not a valid .${ext} video`);
  }
}

export const toUploaded = (r: FileRow): UploadedFile => ({ id: r.id, name: r.name, size: r.size, mime_type: r.mimeType });
export const toFileInfo = (r: FileRow): FileInfo => ({ ...toUploaded(r), biz_type: r.bizType, workspace_id: r.workspaceId, created_at: r.createdAt.toISOString() });

/** The files of `ids` the caller may read ({@link readableFile}), in the order asked, once each. */
export async function readableFiles(ctx: ServerContext, caller: Pick<Caller, 'tenantId' | 'userId'>, ids: readonly string[]): Promise<FileRow[]> {
  const out: FileRow[] = [];
  for (const id of new Set(ids)) {
    try {
      out.push(await readableFile(ctx, caller, id));
    } catch {
      // Unreadable, missing and malformed ids are left out alike (whether a file exists is not told).
    }
  }
  return out;
}

/**
 * Stores an upload. `workspaceId` (the X-Workspace-Id header) is required except for icons and chat
 * files, which may belong to the tenant only; when given, the caller must be a member.
 */
export async function storeUpload(
  ctx: ServerContext,
  caller: Caller,
  workspaceId: string | undefined,
  input: { bizType: FileBizType; name: string; bytes: Buffer },
): Promise<UploadedFile> {
  if (workspaceId) await requireMembership(ctx.db, caller, workspaceId);
  else if (input.bizType === 'dataset' || input.bizType === 'debug') {
    throw badRequest('Request header X-Workspace-Id is required for this upload');
  }
  const name = input.name.replace(/[\\/]/g, '_').trim();
  checkUpload(ctx.settings, input.bizType, name, input.bytes);
  const id = randomUUID();
  const storageKey = storageKeyOf(caller.tenantId, id);
  await fileStorage(ctx.settings).put(storageKey, input.bytes);
  const [row] = await ctx.db
    .insert(files)
    .values({
      id,
      tenantId: caller.tenantId,
      workspaceId: workspaceId ?? null,
      bizType: input.bizType,
      name,
      size: input.bytes.length,
      mimeType: mimeOf(name),
      storageKey,
      sha256: createHash('sha256').update(input.bytes).digest('hex'),
      createdBy: caller.userId,
    })
    .returning();
  return toUploaded(row!);
}

/**
 * A file the caller may read (preview, download, a run's attachment), in the caller's tenant:
 * - its uploader;
 * - a workspace file (knowledge, debug and workspace chat uploads): the members of that workspace;
 * - a file sent in a conversation (a chat file, with no workspace): the conversation's user, who
 *   reads its messages. Runs only take files their sender may read (checkRunFiles), so naming
 *   someone's file in a message of one's own opens nothing.
 * Anyone else, another tenant, a missing or malformed id: VALIDATION-1000, the same answer (the id
 * page rule: whether it exists is not told).
 */
export async function readableFile(ctx: ServerContext, caller: Pick<Caller, 'tenantId' | 'userId'>, fileId: string): Promise<FileRow> {
  if (!UUID_RE.test(fileId)) throw notFoundOrForeign('File', fileId);
  const [row] = await ctx.db.select().from(files).where(and(eq(files.id, fileId), eq(files.tenantId, caller.tenantId)));
  if (!row) throw notFoundOrForeign('File', fileId);
  if (row.createdBy === caller.userId) return row;
  if (row.workspaceId) {
    try {
      await requireMembership(ctx.db, caller, row.workspaceId);
      return row;
    } catch {
      throw notFoundOrForeign('File', fileId);
    }
  }
  if (await sentInConversationOf(ctx, caller, row.id)) return row;
  throw notFoundOrForeign('File', fileId);
}

/** Whether a message of one of the caller's conversations carries the file. */
async function sentInConversationOf(ctx: ServerContext, caller: Pick<Caller, 'tenantId' | 'userId'>, fileId: string): Promise<boolean> {
  const [hit] = await ctx.db
    .select({ id: messages.id })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(
      and(
        eq(conversations.createdBy, caller.userId),
        eq(conversations.tenantId, caller.tenantId),
        sql`${messages.files} @> ${JSON.stringify([{ file_id: fileId }])}::jsonb`,
      ),
    )
    .limit(1);
  return hit !== undefined;
}

/**
 * The files a run is sent (`files` of a chat message or a workflow run) must each be readable by
 * the sender; otherwise VALIDATION-1000 naming the first one, before anything is written.
 */
export async function checkRunFiles(ctx: ServerContext, caller: Caller, refs: readonly { file_id: string }[]): Promise<RunFileRef[]> {
  const out: RunFileRef[] = [];
  for (const [i, ref] of refs.entries()) {
    let row: FileRow;
    try {
      row = await readableFile(ctx, caller, ref.file_id);
    } catch {
      throw badRequest(`File ${ref.file_id} does not exist or you have no permission`, [{ path: `body/files/${i}/file_id`, message: 'does not exist or you have no permission' }]);
    }
    // The stored name and type, as the portal's runs give them (the client's are not trusted): a
    // condition or list filter on the files' type or extension reads these.
    out.push({ file_id: row.id, name: row.name, type: row.mimeType });
  }
  return out;
}

export const fileBytes = (ctx: ServerContext, row: FileRow) => fileStorage(ctx.settings).get(row.storageKey);

/**
 * An icon for the public icon route: only 'icon' uploads of an image type, and characters' idle
 * clips ('clip' uploads of a video type, shown by <video src> in the portal, which sends no token
 * either); anything else: not found.
 */
export async function publicIcon(ctx: ServerContext, fileId: string): Promise<FileRow | null> {
  if (!UUID_RE.test(fileId)) return null;
  const [row] = await ctx.db.select().from(files).where(and(eq(files.id, fileId), inArray(files.bizType, ['icon', 'clip'])));
  if (!row) return null;
  if (row.bizType === 'icon' ? !row.mimeType.startsWith('image/') : !row.mimeType.startsWith('video/')) return null;
  return row;
}

/** `attachment`/`inline` Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 6266/5987). */
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
