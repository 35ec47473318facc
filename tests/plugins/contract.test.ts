import { describe, expect, it } from 'vitest';
import { textStatsPlugin } from '../../plugins/examples/text-stats/manifest';
import { BUILTIN_KINDS } from '../../plugins/builtins';
import { builtinPlugins } from '../../src/canvas/builtin-plugins';
import { z } from 'zod';
import { createNodeRegistry, defineNodePlugin, runPluginContract } from '../../src/plugin-sdk';
import { EMPTY_FLOW_KINDS, FLOW_MODES, FlowDocument } from '../../schemas/flow';
import { builtins } from './helpers';
import { WIDGETS } from '../../schemas/ui';
import { nodeWidgets } from '../../src/canvas/widgets';
import { metaKeys, missingLabelKeys, widgetNames } from './labels';

const serverPlugins = builtins.plugins;

describe('the built-in list', () => {
  it("gives the server and the editor every listed kind once, in the list's order", () => {
    expect(serverPlugins.map((p) => p.kind)).toEqual([...BUILTIN_KINDS]);
    expect(builtinPlugins.map((p) => p.kind)).toEqual([...BUILTIN_KINDS]);
    expect(new Set(BUILTIN_KINDS).size).toBe(BUILTIN_KINDS.length);
    expect(() => createNodeRegistry(serverPlugins)).not.toThrow();
  });

  it('leaves the example plugin out', () => {
    expect(serverPlugins.some((p) => p.kind === textStatsPlugin.kind)).toBe(false);
  });

  it.each(FLOW_MODES)('gives a new %s flow that parses and has no unknown kinds', (mode) => {
    const registry = createNodeRegistry(serverPlugins);
    const doc = FlowDocument.parse(registry.createFlow(mode));
    expect(doc.nodes.map((n) => n.kind)).toEqual(EMPTY_FLOW_KINDS[mode]);
    const issues = registry.validateFlow(doc).filter((i) => i.ns === 'node-sdk');
    expect(issues).toEqual([]);
  });
});

describe.each(builtinPlugins.map((p) => [p.kind, p] as const))("the editor's %s", (_kind, plugin) => {
  it("has a widget for every widget its schema names: the kit's, the canvas's or its own view's", () => {
    const known = new Set<string>([...WIDGETS, ...Object.keys(nodeWidgets), ...Object.keys(plugin.view?.widgets ?? {})]);
    expect([...widgetNames(plugin.configSchema)].filter((w) => !known.has(w))).toEqual([]);
  });
});

describe.each([...serverPlugins, textStatsPlugin].map((p) => [p.kind, p] as const))('plugin %s', (_kind, plugin) => {
  it('keeps the plugin contract', () => {
    expect(runPluginContract(plugin, { companions: serverPlugins })).toEqual([]);
  });

  it('has zh and en texts for every field label of its schema', () => {
    expect(missingLabelKeys(plugin)).toEqual([]);
  });
});

describe('the label check', () => {
  it('finds labels, help, groups and option labels, nested in lists too, and reports those without texts', () => {
    const probe = defineNodePlugin({
      kind: 'probe',
      version: 1,
      category: 'basic',
      icon: { lucide: 'circle' },
      i18n: { zh: { title: '探', description: '探', fields: { a: '甲' }, modes: { x: '叉' } }, en: { title: 'P', description: 'P', fields: { a: 'A' }, modes: { x: 'X' } } },
      configSchema: z.object({
        a: z.string().default('').meta({ label: 'fields.a', help: 'fields.aHelp' }),
        mode: z.enum(['x', 'y']).default('x').meta({ label: 'fields.a', optionLabels: 'modes' }),
        rows: z.array(z.object({ b: z.string().meta({ label: 'fields.b', group: 'groups.g' }) })).default([]),
      }),
    });
    expect([...metaKeys(probe.configSchema)].sort()).toEqual(['fields.a', 'fields.aHelp', 'fields.b', 'groups.g', 'modes.x', 'modes.y']);
    expect(missingLabelKeys(probe).sort()).toEqual(['fields.aHelp', 'fields.b', 'groups.g', 'modes.y']);
  });
});
