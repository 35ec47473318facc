/**
 * File parsing for knowledge units (spec 5 upload types): text files (pdf, txt, doc, docx, md) give
 * running text; table files (xls, xlsx, csv) give sheets of header and rows. Every failure is an
 * Error whose message can be shown to the user as it is.
 */
import type { ParsedDoc } from '../types';
import { parseCsv } from './csv';
import { parseDoc } from './doc';
import { parseDocx } from './docx';
import { excelHeaderRow, excelSheetNames, parseExcel } from './excel';
import { parsePdf } from './pdf';
import { parseText } from './text';

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
      const r = await parsePdf(bytes);
      return { kind: 'text', text: r.text, ...(r.title ? { title: r.title } : {}) };
    }
    case 'docx':
      return { kind: 'text', text: await parseDocx(bytes) };
    case 'doc':
      // Some ".doc" files are really .docx (zip) saved under the old name.
      if (bytes[0] === 0x50 && bytes[1] === 0x4b) return { kind: 'text', text: await parseDocx(bytes) };
      return { kind: 'text', text: await parseDoc(bytes) };
    case 'xlsx':
    case 'xls':
      return { kind: 'table', sheets: await parseExcel(bytes, name, opts.sheet, headerRowOf(opts.headerRow)) };
    case 'csv':
      return { kind: 'table', sheets: [parseCsv(bytes, name, headerRowOf(opts.headerRow))] };
    default:
      throw new Error(`Unsupported file type '${ext ? '.' + ext : name}': knowledge files can be .pdf .txt .doc .docx .md .xls .xlsx .csv`);
  }
}

/** Sheet names of a workbook (a CSV file is one sheet named after the file). */
export async function excelSheets(bytes: Buffer, name: string): Promise<string[]> {
  if (extensionOf(name) === 'csv') return [name.replace(/\.csv$/i, '')];
  return excelSheetNames(bytes, name);
}

/** The column names in `headerRow` (1-based) of a sheet (the first sheet when `sheet` is undefined). */
export async function excelHeaders(bytes: Buffer, name: string, sheet: string | undefined, headerRow: number): Promise<string[]> {
  const row = headerRowOf(headerRow);
  if (extensionOf(name) === 'csv') return parseCsv(bytes, name, row).headers;
  return excelHeaderRow(bytes, name, sheet, row);
}
