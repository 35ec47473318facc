/**
 * File parsing for knowledge units (spec 5 upload types): text files (pdf, txt, doc, docx, md) give
 * running text; table files (xls, xlsx, csv) give sheets of header and rows. Every failure is an
 * Error whose message can be shown to the user as it is.
 */
import type { ParsedDoc } from '../types';
import { parseText } from './text';

// Each parser and its package (unpdf, mammoth, word-extractor, exceljs, SheetJS, papaparse) loads on
// its first file: together they were about a third of the server's start-up module load and of an
// idle server's JavaScript heap (issue 32), and many studios never take an upload.
const csv = () => import('./csv');
const docx = () => import('./docx');

export { htmlToText, decodeEntities } from './html';
export { decodeText } from './text';

/** Upload types of a knowledge base (spec 5). */
export const KNOWLEDGE_FILE_TYPES = { text: ['pdf', 'txt', 'doc', 'docx', 'md'], table: ['xls', 'xlsx', 'csv'] } as const;

export type KnowledgeFileKind = keyof typeof KNOWLEDGE_FILE_TYPES;

/** The lower-case extension of a file name, without the dot ('' when it has none). */
export const extensionOf = (name: string): string => /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

/** 'text', 'table' or null when the knowledge base does not take the file type. */
export function fileKind(name: string): KnowledgeFileKind | null {
  const ext = extensionOf(name);
  if ((KNOWLEDGE_FILE_TYPES.text as readonly string[]).includes(ext)) return 'text';
  if ((KNOWLEDGE_FILE_TYPES.table as readonly string[]).includes(ext)) return 'table';
  return null;
}

function headerRowOf(n: number | undefined): number {
  if (n === undefined) return 1;
  if (!Number.isInteger(n) || n < 1) throw new Error('The header row must be a whole number of at least 1');
  return n;
}

/**
 * Reads a knowledge file by its extension. `sheet` picks one sheet of a workbook (all sheets when
 * absent); `headerRow` (1-based, default 1) is the row that holds the column names.
 */
export async function parseFile(input: { bytes: Buffer; name: string }, opts: { sheet?: string; headerRow?: number } = {}): Promise<ParsedDoc> {
  const { bytes, name } = input;
  const ext = extensionOf(name);
  if (bytes.length === 0) throw new Error(`The file '${name}' is empty`);
  switch (ext) {
    case 'txt':
    case 'md':
      return { kind: 'text', text: parseText(bytes) };
    case 'pdf': {
      const r = await (await import('./pdf')).parsePdf(bytes);
      return { kind: 'text', text: r.text, ...(r.title ? { title: r.title } : {}) };
    }
    case 'docx':
      return { kind: 'text', text: await (await docx()).parseDocx(bytes) };
    case 'doc':
      // Some ".doc" files are really .docx (zip) saved under the old name.
      if (bytes[0] === 0x50 && bytes[1] === 0x4b) return { kind: 'text', text: await (await docx()).parseDocx(bytes) };
      return { kind: 'text', text: await (await import('./doc')).parseDoc(bytes) };
    case 'xlsx':
    case 'xls':
      return { kind: 'table', sheets: await (await import('./excel')).parseExcel(bytes, name, opts.sheet, headerRowOf(opts.headerRow)) };
    case 'csv': {
      const row = headerRowOf(opts.headerRow);
      return { kind: 'table', sheets: [(await csv()).parseCsv(bytes, name, row)] };
    }
    default:
      throw new Error(`Unsupported file type '${ext ? '.' + ext : name}': knowledge files can be .pdf .txt .doc .docx .md .xls .xlsx .csv`);
  }
}

/** Sheet names of a workbook (a CSV file is one sheet named after the file). */
export async function excelSheets(bytes: Buffer, name: string): Promise<string[]> {
  if (extensionOf(name) === 'csv') return [name.replace(/\.csv$/i, '')];
  return (await import('./excel')).excelSheetNames(bytes, name);
}

/** The column names in `headerRow` (1-based) of a sheet (the first sheet when `sheet` is undefined). */
export async function excelHeaders(bytes: Buffer, name: string, sheet: string | undefined, headerRow: number): Promise<string[]> {
  const row = headerRowOf(headerRow);
  if (extensionOf(name) === 'csv') return (await csv()).parseCsv(bytes, name, row).headers;
  return (await import('./excel')).excelHeaderRow(bytes, name, sheet, row);
}
