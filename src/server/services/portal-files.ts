import { and, eq, inArray } from 'drizzle-orm';
import type { Caller, ServerContext } from '../context';
import { UUID_RE } from '../context';
import { files } from '../db/schema';
import { badRequest, notFoundOrForeign } from '../errors';
import { extensionOf } from '../knowledge/parse';
import type { AppFeatures } from '../../../schemas/flow';
import type { UploadedFile } from '../../../schemas/knowledge';
import type { RunFileRef } from '../../../schemas/run-api';
import { storeUpload } from './files';

/**
 * The portal's attachments: uploaded by an end user with no workspace (biz type `chat`), so they
 * belong to their uploader (files.ts: a file belongs to its uploader or its workspace). A run takes
 * only the user's own uploads, of the kinds and in the number the app's `file_upload` feature allows.
 */

export type FileKind = AppFeatures['file_upload']['types'][number];

/** The extensions of each kind an app may take (anything else is refused at upload). */
export const PORTAL_FILE_KINDS: Record<FileKind, readonly string[]> = {
  image: ['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'svg'],
  document: ['pdf', 'txt', 'md', 'csv', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'json', 'html'],
  audio: ['mp3', 'wav', 'm4a', 'ogg', 'flac', 'aac'],
  video: ['mp4', 'mov', 'webm', 'avi', 'mkv'],
};

export function kindOf(name: string): FileKind | null {
  const ext = extensionOf(name);
  for (const [kind, exts] of Object.entries(PORTAL_FILE_KINDS) as [FileKind, readonly string[]][]) if (exts.includes(ext)) return kind;
  return null;
}

/** POST /web/files/upload: stores the user's attachment (size limit of the settings; known kinds only). */
export async function storePortalUpload(ctx: ServerContext, caller: Caller, file: { name: string; bytes: Buffer }): Promise<UploadedFile> {
  if (!kindOf(file.name)) {
    const all = Object.values(PORTAL_FILE_KINDS).flat();
    throw badRequest(`Unsupported file type '${extensionOf(file.name) ? '.' + extensionOf(file.name) : file.name}': attachments can be ${all.map((x) => `.${x}`).join(' ')}`);
  }
  return storeUpload(ctx, caller, undefined, { bizType: 'chat', ...file });
}

export interface OwnFile {
  id: string;
  name: string;
  mimeType: string;
  kind: FileKind | null;
}

/** The user's own uploads among `ids` (another user's, a missing or a malformed id: VALIDATION-1000). */
export async function ownFiles(ctx: ServerContext, caller: Caller, ids: string[]): Promise<Map<string, OwnFile>> {
  const unique = [...new Set(ids)];
  const bad = unique.find((id) => !UUID_RE.test(id));
  if (bad) throw notFoundOrForeign('File', bad);
  const rows = unique.length
    ? await ctx.db
        .select({ id: files.id, name: files.name, mimeType: files.mimeType })
        .from(files)
        .where(and(inArray(files.id, unique), eq(files.tenantId, caller.tenantId), eq(files.createdBy, caller.userId)))
    : [];
  const out = new Map(rows.map((r) => [r.id, { ...r, kind: kindOf(r.name) }]));
  const missing = unique.find((id) => !out.has(id));
  if (missing) throw notFoundOrForeign('File', missing);
  return out;
}

/**
 * A run's `files`, checked against the app's `file_upload` feature (on, at most `max_count`, of its
 * kinds) and owned by the user; answered with the stored names and types (the client's are not trusted).
 */
export async function checkRunFiles(ctx: ServerContext, caller: Caller, features: AppFeatures, refs: RunFileRef[]): Promise<RunFileRef[]> {
  if (!refs.length) return [];
  const upload = features.file_upload;
  if (!upload.enabled) throw badRequest('This app takes no files', [{ path: 'body/files', message: 'file upload is off for this app' }]);
  if (refs.length > upload.max_count) {
    throw badRequest(`This app takes at most ${upload.max_count} file(s) per message`, [{ path: 'body/files', message: `at most ${upload.max_count}` }]);
  }
  const own = await ownFiles(ctx, caller, refs.map((r) => r.file_id));
  return refs.map((r, i) => {
    const f = own.get(r.file_id)!;
    if (!f.kind || !upload.types.includes(f.kind)) {
      throw badRequest(`The file '${f.name}' is not a kind this app takes (${upload.types.join(', ')})`, [{ path: `body/files/${i}`, message: `takes ${upload.types.join(', ')}` }]);
    }
    return { file_id: f.id, name: f.name, type: f.mimeType };
  });
}
