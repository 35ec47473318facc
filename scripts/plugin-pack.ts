import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { z } from 'zod';
import { PACKAGE_FORMAT, PluginPackageManifest } from '../schemas/plugin-package';
import type { AnyNodePlugin } from '../src/plugin-sdk';
import { bundleChecksum, writeArchive } from '../src/server/plugins/archive';
import { PLUGIN_RUNTIME_GLOBAL } from '../src/plugin-sdk/package-runtime';

/**
 * `npm run plugin:pack -- <folder> [--out file.tgz]`: builds a plugin folder into a package (one
 * .tgz: manifest.json, server.mjs, browser.mjs). The folder holds `plugin.json` (id, name, version,
 * author, description, icon, min_weft_version, optionally the tools it provides with their arguments' JSON Schema;
 * each tool's code in `tools/<name>.ts`, run in the code sandbox), `manifest.ts` (default export: the node kind),
 * optionally `executor.ts` (default export, server bundle only), `view.tsx` (default export, browser
 * bundle only) and `credentials.ts` (default export: the zod schema of its credentials).
 *
 * The bundles do not carry their own zod, SDK or React: those imports read the host's copies from
 * `globalThis.__weftPluginRuntime` (src/plugin-sdk/package-runtime.ts), so schemas, selectors and
 * hooks are the host's very objects.
 */

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const SDK_INDEX = path.join(ROOT, 'src/plugin-sdk/index.ts');

const PluginJson = PluginPackageManifest.pick({ id: true, name: true, version: true, author: true, description: true, icon: true, min_weft_version: true, tools: true });

/** The modules bundles take from the host, by import specifier (or resolved file) → runtime key. */
async function runtimeModules(target: 'server' | 'browser'): Promise<Map<string, { key: string; names: string[] }>> {
  const names = async (spec: string) => Object.keys(await import(spec)).filter((n) => n !== 'default' && /^[A-Za-z_$][\w$]*$/.test(n));
  const m = new Map<string, { key: string; names: string[] }>();
  m.set('zod', { key: 'zod', names: await names('zod') });
  m.set(SDK_INDEX, { key: 'sdk', names: await names(pathToFileURL(SDK_INDEX).href) });
  if (target === 'browser') {
    m.set('react', { key: 'react', names: await names('react') });
    m.set('react/jsx-runtime', { key: 'react/jsx-runtime', names: await names('react/jsx-runtime') });
  }
  return m;
}

function hostModules(modules: Map<string, { key: string; names: string[] }>): Plugin {
  return {
    name: 'weft-host-modules',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.namespace === 'weft-host') return undefined;
        if (modules.has(args.path)) return { path: args.path, namespace: 'weft-host' };
        if (!args.path.startsWith('.')) return undefined;
        const file = path.resolve(args.resolveDir, args.path);
        if (file === path.dirname(SDK_INDEX) || file === SDK_INDEX.replace(/\.ts$/, '') || file === SDK_INDEX) return { path: SDK_INDEX, namespace: 'weft-host' };
        return undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'weft-host' }, (args) => {
        const { key, names } = modules.get(args.path)!;
        const ref = `globalThis[${JSON.stringify(PLUGIN_RUNTIME_GLOBAL)}]?.[${JSON.stringify(key)}]`;
        return {
          contents: `const m = ${ref};\nif (!m) throw new Error(${JSON.stringify(`the Weft host provides no "${key}" module`)});\nexport default m.default ?? m;\nexport const { ${names.join(', ')} } = m;\n`,
          loader: 'js',
        };
      });
    },
  };
}

/** Where a listed tool's code is: `tools/<name>.ts` or `.js` in the plugin folder. */
function toolFile(folder: string, name: string): string {
  for (const ext of ['.ts', '.js']) {
    const file = path.join(folder, 'tools', name + ext);
    if (existsSync(file)) return file;
  }
  throw new Error(`plugin.json lists the tool "${name}" but ${path.join(folder, 'tools', `${name}.ts`)} is missing`);
}

/**
 * A tool's code as a script for the code sandbox (QuickJS): its module bundled on its own (it may
 * import its own files, never the host's: the sandbox has no host objects), then a `main` that calls
 * the default export with the arguments and the context and returns `{ result }`.
 */
export async function toolScript(file: string): Promise<string> {
  const out = await build({
    entryPoints: [file],
    bundle: true,
    format: 'iife',
    globalName: '__weftTool',
    platform: 'neutral',
    target: 'es2020',
    write: false,
    minify: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const code = Buffer.from(out.outputFiles[0].contents).toString('utf8');
  return `${code}
async function main(inputs) {
  const run = __weftTool && __weftTool.default;
  if (typeof run !== 'function') throw new Error('The tool module has no default export function');
  return { result: await run(inputs.args, inputs.context) };
}
`;
}

async function bundle(folder: string, target: 'server' | 'browser', tools: readonly string[] = []): Promise<Buffer> {
  const part = target === 'server' ? 'executor.ts' : 'view.tsx';
  const has = existsSync(path.join(folder, part));
  const list = target === 'server' ? 'executors' : 'views';
  const entry = [
    `import plugin from ${JSON.stringify(path.join(folder, 'manifest.ts'))};`,
    has ? `import part from ${JSON.stringify(path.join(folder, part))};` : '',
    `export const plugins = [plugin];`,
    `export const ${list} = [${has ? 'part' : ''}];`,
    // Tools' code ships in the server bundle (covered by the checksum) as sandbox scripts.
    target === 'server' ? `export const tools = ${JSON.stringify(await Promise.all(tools.map(async (name) => ({ name, script: await toolScript(toolFile(folder, name)) }))))};` : '',
  ].join('\n');
  const out = await build({
    stdin: { contents: entry, resolveDir: folder, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    format: 'esm',
    platform: target === 'server' ? 'node' : 'browser',
    target: 'es2022',
    write: false,
    jsx: 'automatic',
    minify: false,
    legalComments: 'none',
    logLevel: 'silent',
    plugins: [hostModules(await runtimeModules(target))],
  });
  return Buffer.from(out.outputFiles[0].contents);
}

export interface PackOptions {
  /** Overrides plugin.json's version (fixtures build a v2 from the same folder). */
  version?: string;
}

/** Builds a plugin folder into a package; returns the archive and its manifest. */
export async function packPlugin(dir: string, opts: PackOptions = {}): Promise<{ bytes: Buffer; manifest: PluginPackageManifest }> {
  const folder = path.resolve(dir);
  const meta = PluginJson.parse({ ...JSON.parse(readFileSync(path.join(folder, 'plugin.json'), 'utf8')), ...(opts.version ? { version: opts.version } : {}) });
  const kind = ((await import(pathToFileURL(path.join(folder, 'manifest.ts')).href)) as { default?: AnyNodePlugin }).default;
  if (!kind?.kind) throw new Error(`${dir}/manifest.ts has no default export (the node kind)`);
  const credentialsFile = path.join(folder, 'credentials.ts');
  const credentials = existsSync(credentialsFile) ? ((await import(pathToFileURL(credentialsFile).href)) as { default: z.ZodType }).default : undefined;
  const [server, browser] = [await bundle(folder, 'server', meta.tools.map((t) => t.name)), await bundle(folder, 'browser')];
  const manifest = PluginPackageManifest.parse({
    format: PACKAGE_FORMAT,
    ...meta,
    kinds: [{ kind: kind.kind, version: kind.version }],
    credentials_schema: credentials ? z.toJSONSchema(credentials) : null,
    checksum: bundleChecksum(server, browser),
  });
  const bytes = writeArchive({ 'manifest.json': JSON.stringify(manifest, null, 2), 'server.mjs': server, 'browser.mjs': browser });
  return { bytes, manifest };
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const out = outAt >= 0 ? args.splice(outAt, 2)[1] : undefined;
  const dir = args[0];
  if (!dir) {
    console.error('usage: npm run plugin:pack -- <plugin folder> [--out file.tgz]');
    process.exit(2);
  }
  const { bytes, manifest } = await packPlugin(dir);
  const file = out ?? `${manifest.id}-${manifest.version}.tgz`;
  writeFileSync(file, bytes);
  console.log(`${file}: ${manifest.id} ${manifest.version} (${manifest.kinds.map((k) => k.kind).join(', ')}), ${bytes.length} bytes, sha256 ${manifest.checksum}`);
}
