// The server's production build: src/server/main.ts and its worker threads bundled by esbuild into
// dist-server/, so `npm start` runs plain JavaScript with `node` (no TypeScript loader at run time:
// tsx compiled ~250 modules on every start). Packages stay in node_modules (native addons, WASM files
// and data files are found where their package expects them); our own modules are bundled, split at
// the dynamic imports so what the start does not need (file parsers, MCP, database drivers) is not
// loaded until used.
//
// The worker threads are entries of their own, written beside main.mjs under the names the code asks
// for with `new URL('./….mjs', import.meta.url)`; chunks stay in the same folder so those URLs
// resolve from whichever chunk holds the code. The SQL migrations are copied beside them.
// build.json lists the source files the bundle was made from (scripts/build-check.mjs compares their
// times with the build's).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SERVER_OUT = 'dist-server';

/**
 * What sources find by URL relative to their own file, made to resolve from the bundle:
 * - `new URL('../…', import.meta.url)` naming a file outside src/server (package.json): rewritten
 *   relative to dist-server/, where every chunk is;
 * - the built-in node kinds, which src/server/plugins/builtins.ts imports as `plugins/<kind>/manifest.ts`
 *   and `executor.ts` by URL (TypeScript that plain node cannot load): replaced by a module importing
 *   each folder's files by name, still on first use, so esbuild bundles them.
 * @param {string} root
 * @returns {import('esbuild').Plugin}
 */
function resolveFileUrls(root) {
  const out = path.join(root, SERVER_OUT);
  return {
    name: 'weft-file-urls',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]server[\\/]plugins[\\/]builtins\.ts$/ }, () => ({ contents: builtinKindsModule(root), loader: 'ts', resolveDir: path.dirname(path.join(root, 'src/server/plugins/builtins.ts')) }));
      b.onLoad({ filter: /[\\/]src[\\/]server[\\/].*\.ts$/ }, (args) => {
        const text = fs.readFileSync(args.path, 'utf8');
        if (!text.includes("import.meta.url")) return undefined;
        const contents = text.replace(/new URL\('(\.\.\/[^']+)', import\.meta\.url\)/g, (_m, rel) => {
          const rebased = path.relative(out, path.resolve(path.dirname(args.path), rel)).split(path.sep).join('/');
          return `new URL(${JSON.stringify(rebased.startsWith('.') ? rebased : `./${rebased}`)}, import.meta.url)`;
        });
        return contents === text ? undefined : { contents, loader: 'ts' };
      });
    },
  };
}

/** src/server/plugins/builtins.ts as bundled: the same loadBuiltinKinds over static import paths. */
function builtinKindsModule(root) {
  const list = fs.readFileSync(path.join(root, 'plugins/builtins.ts'), 'utf8');
  const kinds = /BUILTIN_KINDS = \[([^\]]*)\]/.exec(list)?.[1].match(/'([\w-]+)'/g)?.map((k) => k.slice(1, -1)) ?? [];
  if (!kinds.length) throw new Error('plugins/builtins.ts: no BUILTIN_KINDS list found');
  const entries = kinds.map((kind) => {
    const dir = path.join(root, 'plugins', kind);
    const executor = fs.existsSync(path.join(dir, 'executor.ts')) ? `() => import(${JSON.stringify(path.join(dir, 'executor.ts'))})` : 'null';
    return `  [${JSON.stringify(kind)}, () => import(${JSON.stringify(path.join(dir, 'manifest.ts'))}), ${executor}],`;
  });
  return `
const KINDS: [string, () => Promise<{ default?: any }>, null | (() => Promise<{ default?: any }>)][] = [
${entries.join('\n')}
];
export async function loadBuiltinKinds() {
  const loaded = await Promise.all(
    KINDS.map(async ([kind, manifest, executorOf]) => {
      const plugin = (await manifest()).default;
      if (!plugin || plugin.kind !== kind) throw new Error(\`plugins/\${kind}/manifest.ts defines the kind "\${plugin?.kind}"\`);
      const executor = executorOf ? (await executorOf()).default : undefined;
      if (executorOf && (!executor || executor.kind !== kind)) throw new Error(\`plugins/\${kind}/executor.ts runs the kind "\${executor?.kind}"\`);
      return { plugin, executor };
    }),
  );
  return { plugins: loaded.map((l) => l.plugin), executors: loaded.flatMap((l) => (l.executor ? [l.executor] : [])) };
}
`;
}

/** Files that shape the bundle without being one of its modules. */
const SERVER_CONFIG_INPUTS = ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build-server.mjs', 'plugins/builtins.ts'];

/**
 * Builds the server into `root/dist-server`. The new build is written to a folder of its own and
 * then swapped in, so a server starting meanwhile never sees half of one.
 * @returns the build's duration in ms and its files' total size in bytes.
 */
export async function buildServer(root) {
  const t0 = performance.now();
  // The build's start: a source saved while it runs is newer than the build (build-check.mjs).
  const startedAt = Date.now();
  const { build } = await import('esbuild');
  const out = path.join(root, SERVER_OUT);
  const tmp = `${out}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: {
      main: 'src/server/main.ts',
      // The code sandbox's worker (sandbox.ts: ./worker.mjs) and the indexing worker (prepare-pool.ts: ./prepare-worker.mjs).
      worker: 'src/server/sandbox/worker.mjs',
      // Python code nodes (sandbox.ts: ./python-worker.mjs) and the embedded database (pglite-remote.ts: ./pglite-worker.mjs).
      'python-worker': 'src/server/sandbox/python-worker.mjs',
      'pglite-worker': 'src/server/db/pglite-worker.mjs',
      'prepare-worker': 'src/server/knowledge/prepare-thread.ts',
      // The offline voice (speech/offline-voice.ts: ./espeak-worker.mjs).
      'espeak-worker': 'src/server/speech/espeak-worker.mjs',
      // Broadcast videos' frames (digital-human/frames-pool.ts: ./frames-worker.mjs).
      'frames-worker': 'src/server/digital-human/frames-thread.ts',
      // SVG portraits drawn into PNGs (digital-human/svg-portrait.ts: ./svg-worker.mjs).
      'svg-worker': 'src/server/digital-human/svg-worker.mjs',
    },
    outdir: tmp,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    outExtension: { '.js': '.mjs' },
    chunkNames: '[name]-[hash]',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
    plugins: [resolveFileUrls(root)],
  });
  fs.cpSync(path.join(root, 'src/server/db/migrations'), path.join(tmp, 'migrations'), { recursive: true });
  const inputs = [...new Set([...Object.keys(result.metafile.inputs).filter((f) => !f.startsWith('node_modules/')), 'src/server/db/migrations', ...SERVER_CONFIG_INPUTS])].sort();
  fs.writeFileSync(path.join(tmp, 'build.json'), `${JSON.stringify({ builtAt: startedAt, inputs }, null, 1)}\n`);
  fs.rmSync(out, { recursive: true, force: true });
  fs.renameSync(tmp, out);
  const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
  return { ms: performance.now() - t0, bytes };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(import.meta.dirname, '..');
  const { ms, bytes } = await buildServer(root);
  console.log(`server built into ${SERVER_OUT}/ in ${(ms / 1000).toFixed(1)} s (${(bytes / 1024 / 1024).toFixed(1)} MB with source maps)`);
}
