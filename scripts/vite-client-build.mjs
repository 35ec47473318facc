/**
 * What the client build adds to Vite's (vite.config.ts; plain JavaScript, so Vite loads its config
 * without a TypeScript step), when it builds the served client into dist/:
 *
 * - every text file of the build is written again compressed, brotli (`.br`) and gzip (`.gz`), so
 *   the server sends them as they are (@fastify/static `preCompressed`) instead of 4 MB of JS to
 *   a login page, and spends no CPU compressing at run time;
 * - dist/.vite/weft-client.json lists the sources the build was made from and when it started
 *   (scripts/build-check.mjs: `npm start` builds again only when one of them changed);
 * - a few lines say what a first load costs on the wire: index.html and what it loads before any
 *   route (the entry chunk, its static imports and their CSS), and with the login page's and the
 *   console home's route chunks and texts, against the 250 KB budget of issue 32 (the portal's is
 *   `npm run bench:portal-size`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

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
/** Issue 32: the login page and the console home at most this on the wire (brotli). */
const FIRST_LOAD_BUDGET_KB = 250;
/** Files compressed at once (zlib's thread pool does the work). */
const PARALLEL = 4;

/** Sources the build depends on besides its modules. */
const CONFIG_INPUTS = ['index.html', 'vite.config.ts', 'scripts/vite-client-build.mjs', 'package.json', 'package-lock.json', 'tsconfig.json', 'public'];

/** @typedef {{ file: string; raw: number; br: number; gz: number }} CompressedFile */

/**
 * Writes `file.br` and `file.gz` beside a file; answers their sizes.
 * @param {string} file
 * @returns {Promise<CompressedFile>}
 */
export async function compressFile(file) {
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

/** @param {string} dir @returns {string[]} */
function filesUnder(dir) {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** @param {string[]} files @returns {Promise<CompressedFile[]>} */
async function compressAll(files) {
  /** @type {CompressedFile[]} */
  const out = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < files.length) out.push(await compressFile(files[next++]));
    }),
  );
  return out;
}

/** @param {number} n */
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;

/** Where the console's first load takes its icons from: its shell, the ui kit and the console home. */
const SHELL_DIRS = ['src/app/shell', 'src/ui', 'src/app/screens/operation'];

/** The entry and the portal's discover page (its budget is issue 21's 200 KB of gzip). */
const NOT_SHELL = ['src/main.tsx', 'src/app/portal/portal-layout.tsx', 'src/app/portal/discover/discover-page.tsx'];

/** @param {string} file @returns {string[]} the names a source imports from lucide-react */
const iconNamesIn = (file) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/import\s*(?:type\s*)?\{([^}]+)\}\s*from\s*'lucide-react'/g)].flatMap((m) =>
    m[1].split(',').map((part) => part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]),
  );

/**
 * The sources the given ones import statically, followed through relative and `@/` imports (the entry's:
 * what every page loads before its route).
 * @param {string} root
 */
function staticClosure(root, /** @type {string[]} */ starts) {
  const seen = new Set();
  const resolve = (/** @type {string} */ from, /** @type {string} */ spec) => {
    const base = spec.startsWith('@/') ? path.join(root, 'src', spec.slice(2)) : spec.startsWith('.') ? path.resolve(path.dirname(from), spec) : null;
    if (!base) return null;
    for (const ext of ['', '.ts', '.tsx', '/index.ts', '/index.tsx']) if (fs.existsSync(base + ext) && fs.statSync(base + ext).isFile()) return base + ext;
    return null;
  };
  const visit = (/** @type {string} */ file) => {
    if (seen.has(file) || !/\.tsx?$/.test(file)) return;
    seen.add(file);
    const source = fs.readFileSync(file, 'utf8');
    for (const m of source.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s*)?'([^']+)'/gm)) {
      const next = resolve(file, m[1]);
      if (next) visit(next);
    }
  };
  for (const start of starts) visit(path.join(root, start));
  return seen;
}

/**
 * The lucide icon files (kebab names) imported by {@link SHELL_DIRS}' sources and not by the entry's or the
 * portal's first page (those keep their own chunks, so the portal does not load the console's icons), by the
 * names lucide-react's ES barrel exports (an icon has several: `ChevronDown`, `ChevronDownIcon`, …).
 * @param {string} root
 */
export function shellIconFiles(root) {
  const barrel = fs.readFileSync(path.join(root, 'node_modules/lucide-react/dist/esm/lucide-react.mjs'), 'utf8');
  const fileOf = new Map();
  for (const m of barrel.matchAll(/export \{([^}]+)\} from '\.\/icons\/([\w-]+)\.mjs'/g)) {
    for (const part of m[1].split(',')) {
      const name = /as (\w+)/.exec(part)?.[1];
      if (name) fileOf.set(name, m[2]);
    }
  }
  const inEntry = new Set([...staticClosure(root, NOT_SHELL)].flatMap(iconNamesIn).map((n) => fileOf.get(n)));
  const files = new Set();
  for (const dir of SHELL_DIRS) {
    for (const f of fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })) {
      if (!/\.tsx?$/.test(f) || /\.(test|stories)\.tsx?$/.test(f)) continue;
      for (const name of iconNamesIn(path.join(root, dir, f))) {
        const file = fileOf.get(name);
        if (file && !inEntry.has(file)) files.add(file);
      }
    }
  }
  return files;
}

/** @returns {import('vite').Plugin} */
export function weftClientBuild() {
  /** @type {import('vite').ResolvedConfig} */
  let config;
  let enabled = false;
  let startedAt = 0;
  /** @type {string[]} */
  let inputs = [];
  /**
   * What a first load fetches (output file names): index.html, the entry, its static imports and
   * their CSS; for a page, also its route's chunks and its texts.
   * @type {Record<string, string[]>}
   */
  let pages = {};
  /** The entry's own files (its static imports and their CSS): loaded before any route's chunk can be. */
  let loadedFirst = new Set();
  return {
    name: 'weft-client-build',
    apply: 'build',
    // The console shell's icons in one chunk instead of ~27 files of a few hundred bytes each: each file of
    // a first load costs ~330 bytes of response headers, which issue 32's 250 KB budget counts.
    config(c) {
      const root = c.root ? path.resolve(c.root) : process.cwd();
      const icons = shellIconFiles(root);
      const iconFile = /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]([\w-]+)\.mjs$/;
      return {
        build: {
          // A route's chunk preloads its dependencies, less those the entry itself loads (always there before
          // any route: a no-op each): the lists, their file names and their indexes are in the entry chunk
          // that every page loads first (the portal's first load has a 200 KB budget).
          modulePreload: {
            resolveDependencies: (/** @type {string} */ _file, /** @type {string[]} */ deps, /** @type {{ hostType: string }} */ ctx) =>
              ctx.hostType === 'js' ? deps.filter((d) => !loadedFirst.has(d)) : deps,
          },
          rolldownOptions: {
            output: { codeSplitting: { groups: [{ name: 'shell-icons', includeDependenciesRecursively: false, test: (/** @type {string} */ id) => icons.has(iconFile.exec(id)?.[1] ?? '') }] } },
          },
        },
      };
    },
    configResolved(c) {
      config = c;
      // Only the served client: not Storybook's build, nor a benchmark's build into a folder of its own.
      enabled = path.resolve(c.root, c.build.outDir) === path.resolve(c.root, 'dist');
    },
    buildStart() {
      startedAt = Date.now();
    },
    generateBundle(_options, bundle) {
      /** The output files a set of chunks loads: each with its static imports and their CSS. */
      const closure = (/** @type {string[]} */ fileNames) => {
        const seen = new Set(['index.html']);
        /** @param {string} fileName */
        const visit = (fileName) => {
          if (seen.has(fileName)) return;
          seen.add(fileName);
          const chunk = bundle[fileName];
          if (chunk?.type !== 'chunk') return;
          for (const css of chunk.viteMetadata?.importedCss ?? []) seen.add(css);
          for (const imp of chunk.imports) visit(imp);
        };
        fileNames.forEach(visit);
        return [...seen];
      };
      const chunks = Object.values(bundle).filter((o) => o.type === 'chunk');
      // Read by modulePreload.resolveDependencies when Vite's own generateBundle (after this one) writes the
      // preload lists: the one entry's files, their static imports and their CSS (a build of several entries,
      // Storybook's, keeps its lists whole).
      const entries = chunks.filter((c) => c.isEntry).map((c) => c.fileName);
      loadedFirst = new Set(entries.length === 1 ? closure(entries) : []);
      if (!enabled) return;
      const root = config.root;
      const ids = new Set();
      for (const id of this.getModuleIds()) {
        const file = id.split('?')[0];
        if (file.startsWith('\0') || !path.isAbsolute(file) || file.includes(`${path.sep}node_modules${path.sep}`)) continue;
        const rel = path.relative(root, file);
        if (!rel.startsWith('..')) ids.add(rel.split(path.sep).join('/'));
      }
      inputs = [...new Set([...ids, ...CONFIG_INPUTS.filter((f) => fs.existsSync(path.join(root, f)))])].sort();
      /** The chunk whose module is `rel` (a source path), by its facade. */
      const chunkOf = (/** @type {string} */ rel) => chunks.filter((c) => c.facadeModuleId && path.relative(root, c.facadeModuleId).split(path.sep).join('/') === rel).map((c) => c.fileName);
      const entry = chunks.filter((c) => c.isEntry && c.facadeModuleId?.endsWith('.html') !== false).map((c) => c.fileName);
      // The Chinese texts (the fallback language): the start-up namespaces for the sign-in, and the
      // console home's on top of them for the console home (src/i18n/startup.ts; its other pages load all).
      const startupSource = fs.readFileSync(path.join(root, 'src/i18n/startup.ts'), 'utf8');
      const namespaceList = (/** @type {string} */ name) => new RegExp(`${name} = \\[([^\\]]*)\\]`).exec(startupSource)?.[1].match(/[\w-]+/g) ?? [];
      const startup = namespaceList('STARTUP_NAMESPACES');
      const consoleHome = [...startup, ...namespaceList('CONSOLE_HOME_NAMESPACES')];
      const texts = (/** @type {string[] | null} */ names) =>
        chunks
          .filter((c) => {
            const m = c.facadeModuleId && /src\/i18n\/locales\/zh\/([\w-]+)\.ts$/.exec(c.facadeModuleId.split(path.sep).join('/'));
            return m && (!names || names.includes(m[1]));
          })
          .map((c) => c.fileName);
      pages = {
        'before any route': closure(entry),
        'login page': closure([...entry, ...chunkOf('src/app/screens/login/login-page.tsx'), ...texts(startup)]),
        'console home': closure([...entry, ...chunkOf('src/app/console-routes.tsx'), ...chunkOf('src/app/screens/operation/operation-home.tsx'), ...texts(consoleHome)]),
      };
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
      const size = (/** @type {string} */ f) => bySize.get(f) ?? { file: f, raw: fs.statSync(path.join(outDir, f)).size, br: fs.statSync(path.join(outDir, f)).size, gz: fs.statSync(path.join(outDir, f)).size };
      /** @param {'raw' | 'br' | 'gz'} k @param {{ raw: number; br: number; gz: number }[]} list */
      const sum = (k, list) => list.reduce((n, d) => n + d[k], 0);
      const lines = [
        `weft: ${done.length} files precompressed in ${((performance.now() - t0) / 1000).toFixed(1)} s (${kb(sum('raw', done))} → brotli ${kb(sum('br', done))}, gzip ${kb(sum('gz', done))}).`,
        `weft: first load on the wire, brotli (gzip, uncompressed); budget ${FIRST_LOAD_BUDGET_KB} KB:`,
      ];
      for (const [name, files] of Object.entries(pages)) {
        const list = files.map(size);
        const over = sum('br', list) > FIRST_LOAD_BUDGET_KB * 1024 ? '  OVER BUDGET' : '';
        lines.push(`  ${name.padEnd(17)} ${kb(sum('br', list)).padStart(7)} (${kb(sum('gz', list))}, ${kb(sum('raw', list))}) in ${list.length} files${over}`);
      }
      // Printed whatever Vite's log level (`npm start` and CI build with --logLevel warn): the figure is the point.
      console.log(lines.join('\n'));
    },
  };
}
