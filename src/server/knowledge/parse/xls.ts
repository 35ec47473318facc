/**
 * Excel 97-2003 (.xls, BIFF8 in an OLE2 compound file), which exceljs cannot read, through SheetJS
 * Community Edition 0.20.3 (the @e965/xlsx npm release of it: the `xlsx` package on npm is an old
 * release with known vulnerabilities, fixed in 0.19.3 and 0.20.2).
 */
import * as XLSX from '@e965/xlsx';
import type { ParsedSheet } from '../types';

function load(bytes: Uint8Array): XLSX.WorkBook {
  try {
    // Formulas are not evaluated and no files are touched: only the stored cell values are read.
    return XLSX.read(bytes, { type: 'buffer', cellFormula: false, cellHTML: false, dense: true });
  } catch (e) {
    throw new Error(`The file is not a readable Excel (.xls) workbook (${(e as Error).message})`);
  }
}

function readSheet(wb: XLSX.WorkBook, name: string, headerRow: number): ParsedSheet {
  const ws = wb.Sheets[name]!;
  // raw: false gives the formatted text a user sees (dates, percentages); blankrows keeps row numbers.
  const all = XLSX.utils.sheet_to_json<unknown[]>(ws, { header: 1, raw: false, defval: '', blankrows: true }).map((r) => r.map((c) => String(c ?? '').trim()));
  const headers = all[headerRow - 1] ?? [];
  let n = headers.length;
  while (n > 0 && headers[n - 1] === '') n--;
  const rows = all.slice(headerRow).filter((r) => r.some((c) => c !== ''));
  return { name, headers: headers.slice(0, n), rows };
}

export function xlsSheetNames(bytes: Uint8Array): string[] {
  return load(bytes).SheetNames;
}

export function parseXls(bytes: Uint8Array, sheet: string | undefined, headerRow: number): ParsedSheet[] {
  const wb = load(bytes);
  if (sheet !== undefined && sheet !== '' && !wb.SheetNames.includes(sheet)) throw new Error(`The workbook has no sheet named '${sheet}'`);
  const names = sheet ? [sheet] : wb.SheetNames;
  return names.map((n) => readSheet(wb, n, headerRow));
}
