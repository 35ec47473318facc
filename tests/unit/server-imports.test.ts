import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startImports } from '../../scripts/server-imports.mjs';

// Issue 32: the start loads only what answering needs. These packages are loaded on first use (a
// knowledge file, a spreadsheet source, a GBI query, a sign-in mail, an MCP connection, an SVG portrait); statically
// imported, they cost the start some 0.5 s of module loading and an idle server ~35 MB of heap.
const LOADED_ON_USE = [
  'exceljs',
  '@e965/xlsx',
  'mammoth',
  'word-extractor',
  'unpdf',
  'papaparse',
  '@duckdb/node-api',
  'node-sql-parser',
  'nodemailer',
  '@modelcontextprotocol/sdk',
  // SVG portraits (issue 31): only the SVG worker thread loads it, on the first SVG portrait.
  '@resvg/resvg-wasm',
];

describe("the server's start", () => {
  it('does not load the packages a start never uses', async () => {
    const packages = await startImports(path.resolve(import.meta.dirname, '../..'));
    // Sanity: the graph is read (the web framework and the database layer are reached).
    expect(packages.has('fastify')).toBe(true);
    expect(packages.has('drizzle-orm')).toBe(true);
    const loaded = LOADED_ON_USE.filter((p) => packages.has(p)).map((p) => `${p} (${packages.get(p)!.join(' > ')})`);
    expect(loaded).toEqual([]);
  });
});
