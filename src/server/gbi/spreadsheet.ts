import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type ExcelJS from 'exceljs';
import { ErrorCode } from '../../../schemas/errors';
import { AppError } from '../errors';
import { extensionOf } from '../knowledge/parse';

/**
 * A spreadsheet upload as CSV files DuckDB reads, one per sheet (a .csv is one sheet). .xlsx is read
 * with exceljs; .xls (the old binary format) exceljs cannot read: refused with GBI-1002, asking for
 * .xlsx. Rows before the first non-empty one are dropped, so a title gap does not hide the header.
 */

export interface SheetFile {
  sheet: string;
  /** A suggested table name: the sheet's (or file's) name made into an identifier. */
  tableName: string;
  csvPath: string;
}

export const unreadable = (message: string, data?: unknown) => new AppError(400, ErrorCode.GBI_FILE_UNREADABLE, message, data ?? null);

/** `Sales 2024` → `sales_2024`; `销售` → `sheet_1` (the table name must be an identifier). */
export function tableNameOf(name: string, index: number, taken: Set<string>): string {
  let base = name
    .toLowerCase()
    .replace(/\.[a-z0-9]+$/, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 50);
  if (!base || /^\d/.test(base)) base = base ? `t_${base}` : `sheet_${index + 1}`;
  let out = base;
  for (let n = 2; taken.has(out); n++) out = `${base}_${n}`;
  taken.add(out);
  return out;
}

/** A cell's value as CSV text: dates as ISO, formulas by their result, rich text and links by their text. */
function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().replace(/T00:00:00\.000Z$/, '').replace('.000Z', '');
  if (typeof v === 'object') {
    const o = v as { result?: ExcelJS.CellValue; richText?: { text: string }[]; text?: unknown; error?: string };
    if ('result' in o) return cellText(o.result ?? null);
    if (o.richText) return o.richText.map((r) => r.text).join('');
    if (typeof o.text === 'string') return o.text;
    if (o.error) return '';
    return '';
  }
  return String(v);
}

/** Writes each sheet of the upload as a CSV file in `tmpDir`; the caller removes them. */
export async function sheetsOf(fileName: string, bytes: Buffer, tmpDir: string): Promise<SheetFile[]> {
  const ext = extensionOf(fileName);
  fs.mkdirSync(tmpDir, { recursive: true });
  const taken = new Set<string>();
  if (ext === 'csv') {
    const csvPath = path.join(tmpDir, `${randomUUID()}.csv`);
    // A byte-order mark would become part of the first header.
    fs.writeFileSync(csvPath, bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes);
    return [{ sheet: fileName, tableName: tableNameOf(fileName, 0, taken), csvPath }];
  }
  if (ext === 'xls') throw unreadable(`'${fileName}' is an .xls file, which cannot be read here: save it as .xlsx and upload that`, { extension: ext });
  if (ext !== 'xlsx') throw unreadable(`'${fileName}' is not a spreadsheet: upload a .csv or .xlsx file`, { extension: ext });
  // exceljs (some 300 modules with its zip and stream packages) and papaparse load with the first .xlsx, not at the server's start (issue 32).
  const [{ default: Excel }, { default: Papa }] = await Promise.all([import('exceljs'), import('papaparse')]);
  const wb = new Excel.Workbook();
  try {
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (e) {
    throw unreadable(`'${fileName}' cannot be read as .xlsx: ${(e as Error).message}`);
  }
  const out: SheetFile[] = [];
  wb.eachSheet((ws, id) => {
    const rows: string[][] = [];
    let width = 0;
    ws.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (c, col) => {
        cells[col - 1] = cellText(c.value);
      });
      const text = Array.from(cells, (c) => c ?? '');
      if (text.some((c) => c.trim())) {
        rows.push(text);
        width = Math.max(width, text.length);
      }
    });
    if (!rows.length) return;
    const csvPath = path.join(tmpDir, `${randomUUID()}.csv`);
    fs.writeFileSync(csvPath, Papa.unparse(rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ''))));
    out.push({ sheet: ws.name, tableName: tableNameOf(ws.name, id - 1, taken), csvPath });
  });
  if (!out.length) throw unreadable(`'${fileName}' holds no table: every sheet is empty`);
  return out;
}
