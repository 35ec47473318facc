/**
 * Spreadsheets: .xlsx through exceljs; binary Excel 97-2003 files (OLE2, whatever their name says)
 * through ./xls, since exceljs reads only the zip format. An .xlsx file named .xls is read as xlsx.
 */
import ExcelJS from 'exceljs';
import type { ParsedSheet } from '../types';
import { parseXls, xlsSheetNames } from './xls';

const isZip = (b: Uint8Array) => b[0] === 0x50 && b[1] === 0x4b;
/** The OLE2 compound file signature D0 CF 11 E0 A1 B1 1A E1 of Office 97-2003 files. */
const isOle = (b: Uint8Array) => b[0] === 0xd0 && b[1] === 0xcf && b[2] === 0x11 && b[3] === 0xe0;

async function load(bytes: Uint8Array, name: string): Promise<ExcelJS.Workbook> {
  if (!isZip(bytes)) throw new Error(`The file is not a readable Excel (${/\.xls$/i.test(name) ? '.xls' : '.xlsx'}) workbook`);
  const wb = new ExcelJS.Workbook();
  try {
    // exceljs's typings want a Node Buffer of its own @types/node version; the bytes are what count.
    await wb.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  } catch (e) {
    throw new Error(`The file is not a readable Excel (.xlsx) workbook (${(e as Error).message})`);
  }
  return wb;
}

function cellText(cell: ExcelJS.Cell): string {
  const v = cell.value;
  if (v == null) return '';
  if (v instanceof Date) return v.toISOString().replace(/T00:00:00\.000Z$/, '');
  try {
    return cell.text.trim();
  } catch {
    return String(v);
  }
}

function rowCells(ws: ExcelJS.Worksheet, r: number, width: number): string[] {
  const row = ws.getRow(r);
  const out: string[] = [];
  for (let c = 1; c <= width; c++) out.push(cellText(row.getCell(c)));
  return out;
}

function readSheet(ws: ExcelJS.Worksheet, headerRow: number): ParsedSheet {
  const width = ws.actualColumnCount > 0 ? ws.columnCount : 0;
  const headers = headerRow <= ws.rowCount ? rowCells(ws, headerRow, width) : [];
  const rows: string[][] = [];
  for (let r = headerRow + 1; r <= ws.rowCount; r++) {
    const cells = rowCells(ws, r, width);
    if (cells.some((c) => c !== '')) rows.push(cells);
  }
  return { name: ws.name, headers: trimRight(headers), rows };
}

/** Drops empty header cells at the end (columns that only hold data keep a generated name later). */
function trimRight(headers: string[]): string[] {
  let n = headers.length;
  while (n > 0 && headers[n - 1] === '') n--;
  return headers.slice(0, n);
}

function pickSheets(wb: ExcelJS.Workbook, sheet?: string): ExcelJS.Worksheet[] {
  if (sheet === undefined || sheet === '') return wb.worksheets;
  const ws = wb.worksheets.find((w) => w.name === sheet);
  if (!ws) throw new Error(`The workbook has no sheet named '${sheet}'`);
  return [ws];
}

export async function excelSheetNames(bytes: Uint8Array, name: string): Promise<string[]> {
  if (isOle(bytes)) return xlsSheetNames(bytes);
  return (await load(bytes, name)).worksheets.map((w) => w.name);
}

export async function parseExcel(bytes: Uint8Array, name: string, sheet: string | undefined, headerRow: number): Promise<ParsedSheet[]> {
  if (isOle(bytes)) return parseXls(bytes, sheet, headerRow);
  const wb = await load(bytes, name);
  return pickSheets(wb, sheet).map((ws) => readSheet(ws, headerRow));
}

export async function excelHeaderRow(bytes: Uint8Array, name: string, sheet: string | undefined, headerRow: number): Promise<string[]> {
  if (isOle(bytes)) return parseXls(bytes, sheet || xlsSheetNames(bytes)[0], headerRow)[0]?.headers ?? [];
  const wb = await load(bytes, name);
  const ws = pickSheets(wb, sheet)[0];
  if (!ws) return [];
  return readSheet(ws, headerRow).headers;
}
