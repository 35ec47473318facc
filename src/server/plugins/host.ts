import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { asc } from 'drizzle-orm';
import * as zod from 'zod';
import type { EngineRegistries } from '../../engine';
import * as sdk from '../../plugin-sdk';
import { createExecutorRegistry, createNodeRegistry, runPluginContract, type AnyNodeExecutor, type AnyNodePlugin } from '../../plugin-sdk';
import { providePluginRuntime } from '../../plugin-sdk/package-runtime';
import type { PluginPackageManifest } from '../../../schemas/plugin-package';
import type { Db } from '../db/client';
import { pluginPackages } from '../db/schema';
import { loadBuiltinKinds, type BuiltinKinds } from './builtins';
import { openPackage } from './package';

/** A tool's code from a server bundle: a script defining `main` for the code sandbox (scripts/plugin-pack.ts). */
export interface PluginToolCode {
  name: string;
  script: string;
}

/** An installed package as this process loaded it. */
export interface LoadedPackage {
  id: string;
  manifest: PluginPackageManifest;
  state: 'active' | 'failed';
  /** Why it is not running (state `failed`). */
  error: string | null;
  plugins: AnyNodePlugin[];
  executors: AnyNodeExecutor[];
  /** Its tools' code, as scripts for the code sandbox (never run in this process). */
  tools: PluginToolCode[];
  /** The browser bundle (ES module), served to editors. */
  browser: Buffer | null;
}

/**
 * The node kinds this server process runs flows with: the built-in kinds (plugins/builtins.ts)
 * plus the installed packages (table plugin_packages, server-wide). One per server context, so every
 * route and run asks it rather than holding a list of its own. Other processes' installs are seen
 * within `reloadMs` (the host compares the table's stamp); this process's at once after `sync`.
 */
export interface PluginHost {
  /** What runs compile flows against now (a new object whenever the kinds change). */
  registries(): EngineRegistries;
  /** The kinds of the built-in list (a package may not redefine one). */
  builtinKinds(): ReadonlySet<string>;
  /** Installed packages, loaded or failed, in id order. */
  packages(): LoadedPackage[];
  /** Reads the table again and loads what changed (checksum verified first). */
  sync(): Promise<void>;
  /**
   * Before a run: {@link sync} when other processes share the database (one read of the table's
   * stamp; the packages only when it changed), so a kind installed through another process a moment
   * ago runs here too. Nothing on a database this process owns (its own installs sync at once).
   */
  fresh(): Promise<void>;
  /**
   * Loads a package's server bundle without installing it: the kinds it defines, or why it cannot
   * run here (clashing kinds, contract problems, an import that throws). Install refuses on error.
   */
  tryLoad(id: string, server: Buffer, manifest: PluginPackageManifest): Promise<{ plugins: AnyNodePlugin[]; executors: AnyNodeExecutor[]; tools: PluginToolCode[] }>;
  close(): void;
}

export interface PluginHostOptions {
  db?: Db;
  /** Where bundles are unpacked to be imported (read when needed: tests change it). */
  dataDir?: () => string;
  reloadMs?: number;
  /** False when this process is the database's only user (the embedded database). Default true. */
  shared?: boolean;
  /** The built-in kinds, when their loading was started earlier (the server starts it beside the database's open). */
  builtins?: Promise<BuiltinKinds>;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export async function createPluginHost(opts: PluginHostOptions = {}): Promise<PluginHost> {
  const builtins = await (opts.builtins ?? loadBuiltinKinds());
  const builtinKinds = new Set(builtins.plugins.map((p) => p.kind));
  // The bundles take zod and the SDK from here (scripts/plugin-pack.ts), so schemas are ours.
  providePluginRuntime({ zod, sdk });
  let loaded: LoadedPackage[] = [];
  let registries: EngineRegistries = { nodes: createNodeRegistry(builtins.plugins), executors: createExecutorRegistry(builtins.executors) };
  let stamp = '';
  let syncing: Promise<void> | undefined;

  async function importBundle(id: string, server: Buffer, checksum: string) {
    const dir = path.join(path.resolve(opts.dataDir?.() ?? '.weft'), 'plugins', id, checksum);
    const file = path.join(dir, 'server.mjs');
    if (!existsSync(file)) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, server);
    }
    // The URL names the checksum: an upgrade imports a new module, never a cached old one.
    return (await import(pathToFileURL(file).href)) as { plugins?: unknown; executors?: unknown; tools?: unknown };
  }

  async function tryLoad(id: string, server: Buffer, manifest: PluginPackageManifest, others: LoadedPackage[] = loaded) {
    const mod = await importBundle(id, server, manifest.checksum);
    const plugins = (Array.isArray(mod.plugins) ? mod.plugins : []) as AnyNodePlugin[];
    const executors = (Array.isArray(mod.executors) ? mod.executors : []) as AnyNodeExecutor[];
    const declared = manifest.kinds.map((k) => k.kind).sort().join(',');
    if (plugins.map((p) => p?.kind).sort().join(',') !== declared) throw new Error(`the server bundle defines other kinds than the manifest lists (${declared})`);
    for (const p of plugins) {
      if (builtinKinds.has(p.kind)) throw new Error(`"${p.kind}" is a built-in kind`);
      const owner = others.find((o) => o.id !== id && o.state === 'active' && o.plugins.some((q) => q.kind === p.kind));
      if (owner) throw new Error(`"${p.kind}" is already defined by the plugin ${owner.id}`);
      const problems = runPluginContract(p);
      if (problems.length) throw new Error(`"${p.kind}" breaks the plugin contract: ${problems.map((x) => x.message).join('; ')}`);
    }
    for (const e of executors) if (!plugins.some((p) => p.kind === e?.kind)) throw new Error('the server bundle has an executor for a kind it does not define');
    // Tools: exactly the ones the manifest lists, each a script (a package packed before tools ran has none).
    const tools = (Array.isArray(mod.tools) ? mod.tools : []) as PluginToolCode[];
    for (const t of tools) {
      if (typeof t?.name !== 'string' || typeof t.script !== 'string') throw new Error('the server bundle has a tool without a name or a script');
      if (!manifest.tools.some((d) => d.name === t.name)) throw new Error(`the server bundle has the tool "${t.name}", which the manifest does not list`);
    }
    return { plugins, executors, tools };
  }

  function rebuild() {
    const active = loaded.filter((p) => p.state === 'active');
    registries = {
      nodes: createNodeRegistry([...builtins.plugins, ...active.flatMap((p) => p.plugins)]),
      executors: createExecutorRegistry([...builtins.executors, ...active.flatMap((p) => p.executors)]),
    };
  }

  async function doSync() {
    if (!opts.db) return;
    const heads = await opts.db.select({ id: pluginPackages.id, checksum: pluginPackages.checksum, updatedAt: pluginPackages.updatedAt }).from(pluginPackages).orderBy(asc(pluginPackages.id));
    const next = heads.map((h) => `${h.id}:${h.checksum}:${h.updatedAt.toISOString()}`).join('|');
    if (next === stamp) return;
    const rows = await opts.db.select().from(pluginPackages).orderBy(asc(pluginPackages.id));
    const result: LoadedPackage[] = [];
    for (const row of rows) {
      const manifest = row.manifest as unknown as PluginPackageManifest;
      const kept = loaded.find((l) => l.id === row.id && l.manifest.checksum === row.checksum && l.state === 'active');
      if (kept) {
        result.push(kept);
        continue;
      }
      // A package that fails is listed with the reason and left out; the server keeps serving.
      try {
        const pkg = openPackage(Buffer.from(row.archive, 'base64'));
        const { plugins, executors, tools } = await tryLoad(row.id, pkg.server, pkg.manifest, result);
        result.push({ id: row.id, manifest: pkg.manifest, state: 'active', error: null, plugins, executors, tools, browser: pkg.browser });
      } catch (e) {
        result.push({ id: row.id, manifest, state: 'failed', error: message(e), plugins: [], executors: [], tools: [], browser: null });
      }
    }
    loaded = result;
    stamp = next;
    rebuild();
  }

  const sync = () => {
    // One read at a time; a call during a read waits for it and reads again.
    const run = (syncing ?? Promise.resolve()).then(doSync, doSync);
    syncing = run.finally(() => {
      if (syncing === run) syncing = undefined;
    });
    return run;
  };

  await sync().catch((e) => console.error('[weft] loading plugin packages failed:', e));
  const timer = opts.db && opts.reloadMs ? setInterval(() => void sync().catch((e) => console.error('[weft] plugin packages:', e)), opts.reloadMs) : undefined;
  timer?.unref();

  return {
    registries: () => registries,
    builtinKinds: () => builtinKinds,
    packages: () => loaded,
    sync,
    fresh: () => (opts.shared === false ? Promise.resolve() : sync()),
    tryLoad: (id, server, manifest) => tryLoad(id, server, manifest),
    close: () => {
      if (timer) clearInterval(timer);
    },
  };
}
