import { describe, expect, it } from 'vitest';
import { textStatsPlugin } from '../../plugins/examples/text-stats/manifest';
import { builtinPlugins } from '../../plugins/index';
import { runtimePlugins } from '../../plugins/runtime';
import { z } from 'zod';
import { createNodeRegistry, defineNodePlugin, runPluginContract } from '../../src/plugin-sdk';
import { EMPTY_FLOW_KINDS, FLOW_MODES, FlowDocument } from '../../schemas/flow';
import { metaKeys, missingLabelKeys } from './labels';

const KINDS = [
  'start',
  'end',
  'answer',
  'llm',
  'knowledge-retrieval',
  'tool',
  'mcp',
  'code',
  'if-else',
  'question-classifier',
  'parameter-extractor',
  'template-transform',
  'http-request',
  'variable-aggregator',
  'variable-assigner',
  'iteration',
  'iteration-start',
  'loop',
  'loop-start',
  'agent',
  'note',
];

describe('the built-in plugin lists', () => {
  it('hold every built-in kind once, the editor list the same as the runtime one', () => {
    expect([...runtimePlugins.map((p) => p.kind)].sort()).toEqual([...KINDS].sort());
    expect(builtinPlugins.map((p) => p.kind)).toEqual(runtimePlugins.map((p) => p.kind));
    expect(() => createNodeRegistry(runtimePlugins)).not.toThrow();
  });

  it('leave the example plugin out', () => {
    expect(runtimePlugins.some((p) => p.kind === textStatsPlugin.kind)).toBe(false);
  });

  it.each(FLOW_MODES)('give a new %s flow that parses and has no unknown kinds', (mode) => {
    const registry = createNodeRegistry(runtimePlugins);
    const doc = FlowDocument.parse(registry.createFlow(mode));
    expect(doc.nodes.map((n) => n.kind)).toEqual(EMPTY_FLOW_KINDS[mode]);
    const issues = registry.validateFlow(doc).filter((i) => i.ns === 'node-sdk');
    expect(issues).toEqual([]);
  });
});

describe.each([...runtimePlugins, textStatsPlugin].map((p) => [p.kind, p] as const))('plugin %s', (_kind, plugin) => {
  it('keeps the plugin contract', () => {
    expect(runPluginContract(plugin, { companions: runtimePlugins })).toEqual([]);
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
