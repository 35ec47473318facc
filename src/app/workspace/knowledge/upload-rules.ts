/**
 * Upload rules of the knowledge add pages (spec 5): the type sets (text .pdf .txt .doc .docx; table
 * .xls .xlsx .csv), the configured size and count limits (kit rules), and no two files of the same
 * name in one knowledge base — neither against its units nor within the batch. Pure; no React.
 */
import type { MessageDescriptor } from '../../../kit/schema-form/messages';
import { selectFiles, UPLOAD_TYPES, type UploadLimits } from '../../../kit/widgets/upload-rules';

export type UploadKind = 'text' | 'table';

export const ACCEPT: Record<UploadKind, readonly string[]> = { text: UPLOAD_TYPES.text, table: UPLOAD_TYPES.table };

/** What `biz_type` the files group is told. */
export const BIZ_TYPE = 'dataset';

export interface KnowledgeSelection<F> {
  accepted: F[];
  /** Messages already carrying the file's name (`params.name`) when about one file. */
  rejected: MessageDescriptor[];
}

const norm = (name: string) => name.trim().toLowerCase();

/**
 * Sorts picked files into those to upload and those refused, given the names already in the knowledge
 * base (its units) and those already in the list.
 * @example pickKnowledgeFiles([a, b], { taken: ['a.pdf'], inList: 0, limits })
 */
export function pickKnowledgeFiles<F extends { name: string; size: number }>(
  files: readonly F[],
  opts: { taken: readonly string[]; inList: number; limits: UploadLimits },
): KnowledgeSelection<F> {
  const taken = new Set(opts.taken.map(norm));
  const rejected: MessageDescriptor[] = [];
  const unique: F[] = [];
  for (const f of files) {
    if (taken.has(norm(f.name))) {
      rejected.push({ key: 'knowledge:upload.duplicateName', params: { name: f.name } });
      continue;
    }
    taken.add(norm(f.name));
    unique.push(f);
  }
  const sel = selectFiles(unique, opts.inList, opts.limits);
  for (const r of sel.rejected) rejected.push(r.file ? { ...r.message, params: { ...r.message.params, name: r.file.name } } : r.message);
  return { accepted: sel.accepted, rejected };
}

/** A document name is needed and at most this long (spec 5 "document name not empty and within max length"). */
export const DOCUMENT_NAME_MAX = 255;

/** Checks a unit's name: required, at most {@link DOCUMENT_NAME_MAX}, not a name the base already has. */
export function checkDocumentName(name: string, taken: readonly string[]): MessageDescriptor | null {
  const v = name.trim();
  if (!v) return { key: 'kit:validation.required' };
  if (v.length > DOCUMENT_NAME_MAX) return { key: 'kit:validation.maxLength', params: { max: DOCUMENT_NAME_MAX } };
  if (taken.some((t) => norm(t) === norm(v))) return { key: 'knowledge:upload.duplicateName', params: { name: v } };
  return null;
}

/** A default unit name for a web page: its host and path. */
export function nameFromUrl(url: string): string {
  try {
    const u = new URL(url.trim());
    return (u.host + (u.pathname === '/' ? '' : u.pathname)).slice(0, DOCUMENT_NAME_MAX);
  } catch {
    return '';
  }
}

/** Checks a URL source: http(s), not already a unit of the knowledge base (spec 5). */
export function checkUrl(url: string, existing: readonly string[]): MessageDescriptor | null {
  const v = url.trim();
  if (!v) return { key: 'kit:validation.required' };
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return { key: 'knowledge:add.urlInvalid' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { key: 'knowledge:add.urlInvalid' };
  if (existing.some((e) => e.trim() === v)) return { key: 'knowledge:add.urlExists' };
  return null;
}
