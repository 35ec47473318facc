import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as react from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import * as zod from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packPlugin } from '../../scripts/plugin-pack';
import * as sdk from '../../src/plugin-sdk';
import { createNodeRegistry, runPluginContract, type AnyNodePlugin } from '../../src/plugin-sdk';
import { providePluginRuntime } from '../../src/plugin-sdk/package-runtime';
import { openPackage } from '../../src/server/plugins/package';
import { builtins } from './helpers';
import { missingLabelKeys } from './labels';

// The kinds as packages carry them (the example and the v2 fixture, packed by the real script and
// imported the way the server and the editor import them) keep the same contract as the built-ins.

const FOLDERS = ['plugins/examples/text-stats', 'tests/fixtures/plugins/text-stats-v2'];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-packaged-'));
const loaded: { folder: string; server: AnyNodePlugin[]; browser: AnyNodePlugin[]; serverText: string; browserText: string }[] = [];

beforeAll(async () => {
  providePluginRuntime({ zod, sdk, react, 'react/jsx-runtime': jsxRuntime });
  for (const [i, folder] of FOLDERS.entries()) {
    const pkg = openPackage((await packPlugin(folder)).bytes);
    const load = async (name: string, bytes: Buffer) => {
      const file = path.join(dir, `${i}-${name}`);
      fs.writeFileSync(file, bytes);
      return (await import(pathToFileURL(file).href)) as { plugins: AnyNodePlugin[] };
    };
    const server = await load('server.mjs', pkg.server);
    const browser = await load('browser.mjs', pkg.browser);
    loaded.push({ folder, server: server.plugins, browser: browser.plugins, serverText: pkg.server.toString(), browserText: pkg.browser.toString() });
  }
}, 60_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.each(FOLDERS)('the package of %s', (folder) => {
  const of = () => loaded.find((l) => l.folder === folder)!;

  it('keeps the plugin contract and has zh and en texts for its labels, on both sides', () => {
    for (const plugin of [...of().server, ...of().browser]) {
      expect(runPluginContract(plugin, { companions: builtins.plugins })).toEqual([]);
      expect(missingLabelKeys(plugin)).toEqual([]);
    }
  });

  it("uses the host's SDK, so its selectors are recognised (one schema identity)", () => {
    const plugin = of().server[0];
    const registry = createNodeRegistry([...builtins.plugins, plugin]);
    const created = registry.createNode(plugin.kind, { id: 'ts', position: { x: 0, y: 0 } }).node;
    const node = { ...created, config: { ...created.config, source: ['gone', 'text'] } };
    // A reference to a node that is not in the flow is found only when the selector is the SDK's own.
    const doc = registry.createFlow('workflow');
    const issues = registry.validateFlow({ ...doc, nodes: [...doc.nodes, node] } as never);
    expect(issues.filter((i) => i.nodeId === 'ts' && i.ns === 'node-sdk').map((i) => i.key)).toContain('issues.referenceMissing');
  });

  it('carries its executor in the server bundle only', () => {
    expect(of().serverText).toContain('defineNodeExecutor(');
    expect(of().browserText).not.toContain('defineNodeExecutor(');
  });
});
