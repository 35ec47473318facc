/** CSV through papaparse: encoding guessed like text files (BOM, UTF-8, else GB18030), delimiter detected. */
import Papa from 'papaparse';
import type { ParsedSheet } from '../types';
import { decodeText } from './text';

export function parseCsv(bytes: Uint8Array, name: string, headerRow: number): ParsedSheet {
  const text = decodeText(bytes);
  const r = Papa.parse<string[]>(text, { header: false, skipEmptyLines: 'greedy' });
  const fatal = r.errors.find((e) => e.type === 'Quotes' && r.data.length === 0);
  if (fatal) throw new Error(`The CSV file cannot be read (${fatal.message})`);
  const all = r.data.map((row) => row.map((c) => (c ?? '').trim()));
  const headers = all[headerRow - 1] ?? [];
  return { name: name.replace(/\.csv$/i, ''), headers, rows: all.slice(headerRow).filter((row) => row.some((c) => c !== '')) };
}
