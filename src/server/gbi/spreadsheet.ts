import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type ExcelJS from 'exceljs';
import { ErrorCode } from '../../../schemas/errors';
import { AppError } from '../errors';
import { extensionOf } from '../knowledge/parse';

/**
 * A spreadsheet upload as CSV files DuckDB reads, one per sheet (a .csv is one sheet). .xlsx is read
 * with exceljs; .xls (Excel 97-2003, BIFF in an OLE2 file, which exceljs cannot read) with SheetJS,
 * as the knowledge parser does (../knowledge/parse/xls.ts); an .xls that is really a zip is read as
 * .xlsx. Empty rows are dropped, so a title gap does not hide the header.
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
  if (ext !== 'xlsx' && ext !== 'xls') throw unreadable(`'${fileName}' is not a spreadsheet: upload a .csv, .xlsx or .xls file`, { extension: ext });
  // exceljs (some 300 modules with its zip and stream packages), SheetJS and papaparse load with the first workbook, not at the server's start (issue 32).
  const { default: Papa } = await import('papaparse');
  const sheets = ext === 'xls' && !isZip(bytes) ? await xlsSheets(fileName, bytes) : await xlsxSheets(fileName, bytes);
  const out: SheetFile[] = [];
  sheets.forEach(({ name, rows }, index) => {
    const kept = rows.filter((r) => r.some((c) => c.trim()));
    if (!kept.length) return;
    const width = Math.max(...kept.map((r) => r.length));
    const csvPath = path.join(tmpDir, `${randomUUID()}.csv`);
    fs.writeFileSync(csvPath, Papa.unparse(kept.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ''))));
    out.push({ sheet: name, tableName: tableNameOf(name, index, taken), csvPath });
  });
  if (!out.length) throw unreadable(`'${fileName}' holds no table: every sheet is empty`);
  return out;
}

interface SheetRows {
  name: string;
  rows: string[][];
}

const isZip = (b: Buffer) => b[0] === 0x50 && b[1] === 0x4b;
/** The OLE2 compound file signature of Office 97-2003 files. SheetJS reads text it does not recognise as CSV, so nothing else goes to it. */
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

async function xlsxSheets(fileName: string, bytes: Buffer): Promise<SheetRows[]> {
  const { default: Excel } = await import('exceljs');
  const wb = new Excel.Workbook();
  try {
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (e) {
    throw unreadable(`'${fileName}' cannot be read as .xlsx: ${(e as Error).message}`);
  }
  const out: SheetRows[] = [];
  wb.eachSheet((ws) => {
    const rows: string[][] = [];
    ws.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (c, col) => {
        cells[col - 1] = cellText(c.value);
      });
      rows.push(Array.from(cells, (c) => c ?? ''));
    });
    out.push({ name: ws.name, rows });
  });
  return out;
}

/** Stored values only: formulas are not evaluated, nothing but the bytes is read; dates as dates, numbers unformatted (DuckDB infers the types). */
async function xlsSheets(fileName: string, bytes: Buffer): Promise<SheetRows[]> {
  if (bytes.length < 512 || !bytes.subarray(0, 8).equals(OLE2)) throw unreadable(`'${fileName}' is not an Excel 97-2003 (.xls) workbook`);
  const XLSX = await import('@e965/xlsx');
  let wb: import('@e965/xlsx').WorkBook;
  try {
    wb = XLSX.read(bytes, { type: 'buffer', cellDates: true, cellFormula: false, cellHTML: false, dense: true });
  } catch (e) {
    throw unreadable(`'${fileName}' cannot be read as an .xls workbook: ${(e as Error).message}`);
  }
  return wb.SheetNames.map((name) => ({
    name,
    rows: XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets[name]!, { header: 1, raw: true, defval: '', blankrows: false }).map((r) => r.map((v) => cellText(v as ExcelJS.CellValue))),
  }));
}
