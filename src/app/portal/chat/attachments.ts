/**
 * The chat's attachments: which files the app's upload feature takes (kinds, count) and what a run
 * body's `files` carries for each. Pure.
 */
import type { AppFeatures } from '../../../../schemas/flow';
import type { RunFileRef } from '../../../../schemas/run-api';

export type FileKind = AppFeatures['file_upload']['types'][number];

const DOCUMENT_EXTENSIONS = ['.pdf', '.txt', '.md', '.markdown', '.html', '.htm', '.csv', '.json', '.doc', '.docx', '.xls', '.xlsx', '.ppt', '.pptx'];

/** The file input's `accept` for the kinds the app takes. */
export function acceptOf(kinds: readonly FileKind[]): string {
  return kinds.flatMap((k) => (k === 'image' ? ['image/*'] : k === 'audio' ? ['audio/*'] : k === 'video' ? ['video/*'] : DOCUMENT_EXTENSIONS)).join(',');
}

/** The kind of a file, or null when the app does not take it. */
export function kindOf(file: { name: string; type: string }, kinds: readonly FileKind[]): FileKind | null {
  const mime = file.type.toLowerCase();
  const ext = file.name.toLowerCase().match(/\.[^.]+$/)?.[0] ?? '';
  const kind: FileKind | null = mime.startsWith('image/')
    ? 'image'
    : mime.startsWith('audio/')
      ? 'audio'
      : mime.startsWith('video/')
        ? 'video'
        : DOCUMENT_EXTENSIONS.includes(ext)
          ? 'document'
          : null;
  return kind && kinds.includes(kind) ? kind : null;
}

/** An attachment in the composer: uploading, uploaded (with the stored file's id) or failed. */
export interface Attachment {
  key: string;
  name: string;
  kind: FileKind;
  status: 'uploading' | 'done' | 'failed';
  fileId?: string;
}

/** What the run body's `files` gets: the uploaded attachments only. */
export const fileRefsOf = (list: readonly Attachment[]): RunFileRef[] =>
  list.filter((a) => a.status === 'done' && a.fileId).map((a) => ({ file_id: a.fileId!, name: a.name.slice(0, 255), type: a.kind }));
