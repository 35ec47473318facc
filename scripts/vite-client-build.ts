/**
 * What the client build adds to Vite's (vite.config.ts), when it builds the served client into dist/:
 *
 * - every text file of the build is written again compressed, brotli (`.br`) and gzip (`.gz`), so
 *   the server sends them as they are (@fastify/static `preCompressed`) instead of 4 MB of JS to
 *   a login page, and spends no CPU compressing at run time;
 * - dist/.vite/weft-client.json lists the sources the build was made from and when it started
 *   (scripts/build-check.mjs: `npm start` builds again only when one of them changed);
 * - one line says what the first load costs on the wire: index.html and what it loads before any
 *   route (the entry chunk, its static imports and their CSS). `npm run bench:client-size` measures
 *   whole pages in Chromium.
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Compressed: what pages fetch as text. Not the source maps (only devtools fetch them; 60 MB of them). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|wasm)$/;
/** Smaller files gain nothing: the headers outweigh the bytes saved. */
const MIN_BYTES = 1024;
/**
 * Brotli's best quality costs about 1 s per MB here; files above this are the editor's (Monaco's
 * TypeScript worker and API, ELK's layout), fetched once and kept for good: a quicker quality
 * makes them 5% larger and the build 40 s shorter on a busy two-core machine.
 */
const BEST_QUALITY_MAX_BYTES = 1024 * 1024;
/** Files compressed at once (zlib's thread pool does the work). */
const PARALLEL = 4;

/** Sources the build depends on besides its modules. */
const CONFIG_INPUTS = ['index.html', 'vite.config.ts', 'scripts/vite-client-build.ts', 'package.json', 'package-lock.json', 'tsconfig.json', 'public'];

export interface CompressedFile {
  file: string;
  raw: number;
  br: number;
  gz: number;
}

/** Writes `file.br` and `file.gz` beside a file; answers their sizes. */
export async function compressFile(file: string): Promise<CompressedFile> {
  const bytes = fs.readFileSync(file);
  const quality = bytes.length <= BEST_QUALITY_MAX_BYTES ? zlib.constants.BROTLI_MAX_QUALITY : 6;
  const [br, gz] = await Promise.all([
    brotli(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
    gzip(bytes, { level: 9 }),
  ]);
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, gz);
  return { file, raw: bytes.length, br: br.length, gz: gz.length };
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

async function compressAll(files: string[]): Promise<CompressedFile[]> {
  const out: CompressedFile[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < files.length) out.push(await compressFile(files[next++]!));
    }),
  );
  return out;
}

const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;

export function weftClientBuild(): Plugin {
  let config: ResolvedConfig;
  let enabled = false;
  let startedAt = 0;
  let inputs: string[] = [];
  /** index.html's entry and what it imports statically, with their CSS (output file names). */
  let firstLoad: string[] = [];
  return {
    name: 'weft-client-build',
    apply: 'build',
    configResolved(c) {
      config = c;
      // Only the served client: not Storybook's build, nor a benchmark's build into a folder of its own.
      enabled = path.resolve(c.root, c.build.outDir) === path.resolve(c.root, 'dist');
    },
    buildStart() {
      startedAt = Date.now();
    },
    generateBundle(_options, bundle) {
      if (!enabled) return;
      const root = config.root;
      const ids = new Set<string>();
      for (const id of this.getModuleIds()) {
        const file = id.split('?')[0]!;
        if (file.startsWith('\0') || !path.isAbsolute(file) || file.includes(`${path.sep}node_modules${path.sep}`)) continue;
        const rel = path.relative(root, file);
        if (!rel.startsWith('..')) ids.add(rel.split(path.sep).join('/'));
      }
      inputs = [...new Set([...ids, ...CONFIG_INPUTS.filter((f) => fs.existsSync(path.join(root, f)))])].sort();
      const chunks = Object.values(bundle).filter((o) => o.type === 'chunk');
      const seen = new Set<string>();
      const visit = (fileName: string) => {
        if (seen.has(fileName)) return;
        seen.add(fileName);
        const chunk = bundle[fileName];
        if (chunk?.type !== 'chunk') return;
        for (const css of (chunk as { viteMetadata?: { importedCss: Set<string> } }).viteMetadata?.importedCss ?? []) seen.add(css);
        for (const imp of chunk.imports) visit(imp);
      };
      for (const c of chunks) if (c.isEntry && c.facadeModuleId?.endsWith('.html') !== false) visit(c.fileName);
      firstLoad = [...seen, 'index.html'];
    },
    async closeBundle() {
      if (!enabled) return;
      const outDir = path.resolve(config.root, config.build.outDir);
      const t0 = performance.now();
      const done = await compressAll(filesUnder(outDir).filter((f) => COMPRESSIBLE.test(f) && fs.statSync(f).size >= MIN_BYTES && !f.includes(`${path.sep}.vite${path.sep}`)));
      const record = path.join(outDir, '.vite', 'weft-client.json');
      fs.mkdirSync(path.dirname(record), { recursive: true });
      fs.writeFileSync(record, `${JSON.stringify({ builtAt: startedAt, inputs }, null, 1)}\n`);
      const bySize = new Map(done.map((d) => [path.relative(outDir, d.file).split(path.sep).join('/'), d]));
      const first = firstLoad.map((f) => bySize.get(f) ?? { file: f, raw: fs.statSync(path.join(outDir, f)).size, br: fs.statSync(path.join(outDir, f)).size, gz: fs.statSync(path.join(outDir, f)).size });
      const sum = (k: 'raw' | 'br' | 'gz', list: { raw: number; br: number; gz: number }[]) => list.reduce((n, d) => n + d[k], 0);
      const served = done;
      config.logger.info(
        `\nweft: ${done.length} files precompressed in ${((performance.now() - t0) / 1000).toFixed(1)} s ` +
          `(${kb(sum('raw', served))} → brotli ${kb(sum('br', served))}, gzip ${kb(sum('gz', served))}).\n` +
          `weft: first load before any route (index.html, the entry, ${first.length - 2} imports and CSS): ` +
          `${kb(sum('br', first))} brotli, ${kb(sum('gz', first))} gzip, ${kb(sum('raw', first))} uncompressed. ` +
          'Whole pages: npm run bench:client-size.',
      );
    },
  };
}
