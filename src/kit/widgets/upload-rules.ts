/**
 * File upload rules (spec 5): accepted types by extension, a size limit in MB, a count limit. The
 * limits come from the widget's props, else from the app configuration (/config.json `upload`).
 * Pure; no React.
 */
import type { MessageDescriptor } from '../schema-form/messages';

/** Spec 5 upload type sets. */
export const UPLOAD_TYPES = {
  /** Knowledge documents. */
  text: ['.pdf', '.txt', '.doc', '.docx'],
  /** Table knowledge. */
  table: ['.xls', '.xlsx', '.csv'],
  /** Data files. */
  file: ['.xlsx', '.csv'],
  /** Icon and avatar images. */
  image: ['.png', '.jpg', '.jpeg', '.bmp', '.gif', '.svg', '.webp'],
} as const;

/** Spec 5/9: an icon upload is one file of at most 5 MB. */
export const ICON_UPLOAD = { accept: UPLOAD_TYPES.image, maxCount: 1, maxMb: 5 } as const;

export interface UploadLimits {
  /** Extensions with the dot ('.pdf'), case-insensitive; empty or absent: any type. */
  accept?: readonly string[];
  maxMb: number;
  maxCount: number;
}

/** The extension of a file name, lower-case with its dot ('' when none). */
export function extensionOf(name: string): string {
  const m = /\.[^./\\]+$/.exec(name);
  return m ? m[0].toLowerCase() : '';
}

/** '.pdf, .txt' for messages. */
export const typesText = (accept: readonly string[]) => accept.join(', ');

/**
 * Why a file cannot be added (null when it can): unsupported type, or larger than the limit.
 * @example checkFile({ name: 'a.exe', size: 1 }, { accept: ['.pdf'], maxMb: 5, maxCount: 1 }) // unsupportedType
 */
export function checkFile(file: { name: string; size: number }, limits: UploadLimits): MessageDescriptor | null {
  const accept = limits.accept?.map((a) => a.toLowerCase());
  if (accept && accept.length > 0 && !accept.includes(extensionOf(file.name))) {
    return { key: 'kit:upload.unsupportedType', params: { types: typesText(limits.accept ?? []) } };
  }
  if (file.size > limits.maxMb * 1024 * 1024) return { key: 'kit:upload.tooLarge', params: { max: limits.maxMb } };
  return null;
}

export interface Selection<F> {
  /** Files that pass and fit in the remaining count. */
  accepted: F[];
  /** One message per refused file (or for the files over the count). */
  rejected: { file?: F; message: MessageDescriptor }[];
}

/**
 * Sorts a batch of picked files into those to upload and those refused, given how many are
 * already in the list.
 */
export function selectFiles<F extends { name: string; size: number }>(files: readonly F[], existing: number, limits: UploadLimits): Selection<F> {
  const accepted: F[] = [];
  const rejected: Selection<F>['rejected'] = [];
  let room = Math.max(0, limits.maxCount - existing);
  let over = false;
  for (const file of files) {
    const problem = checkFile(file, limits);
    if (problem) {
      rejected.push({ file, message: problem });
      continue;
    }
    if (room === 0) {
      over = true;
      continue;
    }
    accepted.push(file);
    room--;
  }
  if (over) rejected.push({ message: { key: 'kit:upload.tooMany', params: { count: limits.maxCount } } });
  return { accepted, rejected };
}

/** 1536 → '1.5 KB'. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 10 ? Math.round(v) : Math.round(v * 10) / 10} ${units[i]}`;
}
