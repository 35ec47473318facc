// What the server's start loads before it answers: the packages src/server/main.ts reaches through
// static imports (dynamic import() and require() on first use do not count), each with the chain of
// our modules that pulls it in. Issue 32: module loading was the largest phase of a start and most
// of an idle server's JavaScript heap, and much of it was code a start never runs (file parsers,
// DuckDB, SQL grammars, mail, MCP). tests/unit/server-imports.test.ts keeps those out;
// `node scripts/server-imports.mjs` prints the list when looking for the next one to defer.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * @param {string} root the project folder
 * @returns {Promise<Map<string, string[]>>} package name → the chain of source files from main.ts to the importer
 */
export async function startImports(root) {
  const { build } = await import('esbuild');
  const entry = 'src/server/main.ts';
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    write: false,
    splitting: true,
    outdir: path.join(root, 'dist-server-imports'),
    format: 'esm',
    platform: 'node',
    packages: 'external',
    metafile: true,
    logLevel: 'error',
  });
  const inputs = result.metafile.inputs;
  /** @type {Map<string, string | null>} */
  const parent = new Map([[entry, null]]);
  /** @type {Map<string, string[]>} */
  const packages = new Map();
  const chain = (/** @type {string | null} */ f) => {
    const c = [];
    for (; f; f = parent.get(f) ?? null) c.unshift(f);
    return c;
  };
  for (const queue = [entry]; queue.length; ) {
    const file = /** @type {string} */ (queue.shift());
    for (const im of inputs[file]?.imports ?? []) {
      if (im.kind === 'dynamic-import' || im.kind === 'require-call') continue;
      if (im.external) {
        if (im.path.startsWith('node:')) continue;
        const name = im.path.split('/').slice(0, im.path.startsWith('@') ? 2 : 1).join('/');
        if (!packages.has(name)) packages.set(name, chain(file));
      } else if (!parent.has(im.path)) {
        parent.set(im.path, file);
        queue.push(im.path);
      }
    }
  }
  return packages;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const packages = await startImports(path.resolve(import.meta.dirname, '..'));
  for (const [name, via] of packages) console.log(`${name.padEnd(30)} ${via.map((f) => f.replace(/^src\/server\//, '')).join(' > ')}`);
}
