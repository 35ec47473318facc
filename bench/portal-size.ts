/**
 * The portal's first-load size (figures only, no assertions): what a browser downloads to show
 * /portal/sessions/discover to a signed-in user, gzip-compressed, against the 200 KB budget of
 * issue 21. Counted: the entry chunk and every chunk it imports statically (what index.html
 * loads and preloads) with their CSS, the discover route's chunks (the portal's layout and the
 * page) and their static imports, and
 * the text chunks loaded at start-up and by the portal routes (Chinese, the fallback language).
 *
 * Run: npm run bench:portal-size            (builds the client into a temporary folder first)
 *      npm run bench:portal-size -- --dist dist   (reads a build made with `vite build --manifest`)
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { PORTAL_NAMESPACES, STARTUP_NAMESPACES } from '../src/i18n/startup';

const BUDGET_KB = 200;
/** The route modules /portal/sessions/discover loads: the portal's layout and the page. */
const DISCOVER_ROUTE = ['src/app/portal/portal-layout.tsx', 'src/app/portal/discover/discover-page.tsx'];
const root = path.resolve(import.meta.dirname, '..');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

async function buildInto(outDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true, manifest: true, sourcemap: false } });
}

function readManifest(dir: string): Manifest {
  const file = path.join(dir, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build with \`npx vite build --manifest\`, or run without --dist`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

/** The files a chunk needs before it runs: itself, its static imports (transitively) and their CSS. */
function closure(manifest: Manifest, key: string, seen: Set<string>, files: Map<string, string>, why: string): void {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) return;
  if (!files.has(chunk.file)) files.set(chunk.file, why);
  for (const css of chunk.css ?? []) if (!files.has(css)) files.set(css, why);
  for (const dep of chunk.imports ?? []) closure(manifest, dep, seen, files, why);
}

async function main() {
  const args = process.argv.slice(2);
  const distArg = args.indexOf('--dist');
  let dir: string;
  if (distArg >= 0) {
    dir = path.resolve(root, args[distArg + 1] ?? 'dist');
  } else {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-portal-size-'));
    const t = Date.now();
    await buildInto(dir);
    console.log(`built into ${dir} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  const manifest = readManifest(dir);
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entry) throw new Error('No entry chunk in the manifest');

  const files = new Map<string, string>();
  const seen = new Set<string>();
  closure(manifest, entry, seen, files, 'entry');
  const textKeys = [...new Set([...STARTUP_NAMESPACES, ...PORTAL_NAMESPACES])].map((ns) => `src/i18n/locales/zh/${ns}.ts`);
  for (const key of textKeys) {
    if (manifest[key]) closure(manifest, key, seen, files, 'texts');
    else console.log(`(no chunk of its own for ${key}: in the entry, or missing)`);
  }
  for (const key of DISCOVER_ROUTE) {
    if (manifest[key]) closure(manifest, key, seen, files, 'discover');
    else console.log(`(no chunk for ${key}: not built yet)`);
  }

  const rows = [...files].map(([file, why]) => {
    const bytes = fs.readFileSync(path.join(dir, file));
    return { file, why, raw: bytes.length, gz: gzipSync(bytes).length };
  });
  rows.sort((a, b) => b.gz - a.gz);
  const kb = (n: number) => (n / 1024).toFixed(1).padStart(7);
  console.log(`\nportal first load (discover), gzip level 6, node ${process.version}`);
  console.log(`${'gzip KB'.padStart(7)} ${'raw KB'.padStart(7)}  part      file`);
  for (const r of rows) console.log(`${kb(r.gz)} ${kb(r.raw)}  ${r.why.padEnd(8)}  ${r.file}`);
  const byPart = (why: string) => rows.filter((r) => r.why === why).reduce((n, r) => n + r.gz, 0);
  const total = rows.reduce((n, r) => n + r.gz, 0);
  console.log(`\nentry ${kb(byPart('entry'))} KB · texts ${kb(byPart('texts'))} KB · discover ${kb(byPart('discover'))} KB`);
  console.log(`total ${kb(total)} KB gzip of JS+CSS in ${rows.length} files; budget ${BUDGET_KB} KB: ${total / 1024 <= BUDGET_KB ? 'within' : 'OVER'}`);
  const leaks = rows.filter((r) => /canvas|flow-page|editor|monaco|elk|xyflow/i.test(r.file));
  if (leaks.length) console.log(`console-only chunks in the first load: ${leaks.map((r) => r.file).join(', ')}`);
  try {
    console.log(`uptime: ${execSync('uptime').toString().trim()}`);
  } catch {
    console.log(`load average: ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`);
  }
}

await main();
