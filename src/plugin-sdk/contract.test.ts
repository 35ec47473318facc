import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assertPluginContract, defineNodePlugin, runPluginContract, type AnyNodePlugin } from './index';
import { echo, repeat, repeatStart, samplePlugins } from './samples.fixture';

const i18n = { zh: { title: '试', description: '试' }, en: { title: 'Try', description: 'Try' } };
const base = { version: 1, category: 'transform' as const, icon: { lucide: 'box' }, i18n, configSchema: z.object({}) };

describe('runPluginContract', () => {
  it.each(samplePlugins.map((p) => [p.kind, p] as const))('passes for the sample plugin %s', (_kind, plugin) => {
    expect(runPluginContract(plugin as AnyNodePlugin, { companions: samplePlugins })).toEqual([]);
  });

  it('needs a container start kind to be given', () => {
    expect(runPluginContract(repeat)).toEqual([
      { check: 'container', message: expect.stringContaining('"repeat-start" is not given') },
    ]);
    expect(runPluginContract(repeat, { companions: [repeatStart] })).toEqual([]);
  });

  it('reports defaults the schema refuses', () => {
    const p = defineNodePlugin({ ...base, kind: 'no-defaults', configSchema: z.object({ model: z.string() }) });
    expect(runPluginContract(p)).toEqual([{ check: 'defaults', message: expect.stringContaining('model') }]);
  });

  it('reports i18n keys missing in a language, empty texts and a missing title', () => {
    const p = defineNodePlugin({
      ...base,
      kind: 'texts',
      i18n: { zh: { title: '试', description: '', only: '仅中文' }, en: { name: 'Try', description: 'Try' } },
    });
    const messages = runPluginContract(p).map((x) => `${x.check}: ${x.message}`);
    expect(messages).toEqual([
      'i18n: "title" has no en text',
      'i18n: "only" has no en text',
      'i18n: "name" has no zh text',
      'i18n: "description" is empty',
      'i18n: the title key "title" has no zh and en text',
    ]);
  });

  it('reports issue keys validate returns without texts', () => {
    const p = defineNodePlugin({ ...base, kind: 'keys', validate: () => [{ key: 'issues.undeclared' }] });
    expect(runPluginContract(p)).toContainEqual({ check: 'i18n', message: 'issue key "issues.undeclared" has no zh and en text' });
  });

  it('reports missing, extra and failing migrations', () => {
    const p = defineNodePlugin({
      ...base,
      kind: 'migrating',
      version: 4,
      configSchema: z.object({ n: z.number().default(0) }),
      migrations: [
        { from: 1, up: (c) => ({ ...c, n: 'one' }) },
        { from: 3, up: () => { throw new Error('boom'); } },
        { from: 4, up: (c) => c },
      ],
    });
    expect(runPluginContract(p).map((x) => x.message)).toEqual([
      'no migration from version 2',
      'a migration from version 4 (current is 4)',
      'from version 1: Cannot migrate "migrating" from version 2: no migration from this version',
      'from version 3: Cannot migrate "migrating" from version 3: boom',
    ]);
  });

  it('reports a migration that mutates its input or ends outside the schema', () => {
    const p = defineNodePlugin({
      ...base,
      kind: 'mutating',
      version: 2,
      configSchema: z.object({ n: z.number().default(0) }),
      migrations: [{ from: 1, up: (c) => ((c.n = 'x'), c), sample: { n: 1 } }],
    });
    expect(runPluginContract(p).map((x) => x.message)).toEqual([
      'the migration from version 1 changed its input',
      expect.stringContaining('from version 1 the result does not fit the schema'),
    ]);
  });

  it('reports port and handle functions that throw or give bad names', () => {
    const p = defineNodePlugin({
      ...base,
      kind: 'ports',
      outputs: [
        { name: 'ok', type: 'string' },
        { name: 'ok', type: 'string' },
        { name: 'bad name', type: 'string' },
      ],
      inputs: () => {
        throw new Error('no inputs');
      },
      sourceHandles: [{ id: 'a' }, { id: 'a' }, { id: 'b.c' }],
      modes: ['workflow'],
    });
    expect(runPluginContract(p).map((x) => `${x.check}: ${x.message}`)).toEqual([
      'ports: inputs throws in workflow: no inputs',
      'ports: outputs (workflow): "ok" appears twice',
      'ports: outputs (workflow): "bad name" is not an identifier',
      'handles: handle id "b.c" is not valid',
      'handles: handle ids repeat: a, a, b.c',
    ]);
  });

  it('reports a validate that throws', () => {
    const p = defineNodePlugin({
      ...base,
      kind: 'throws',
      modes: ['chatflow'],
      validate: () => {
        throw new Error('bad graph');
      },
    });
    expect(runPluginContract(p)).toEqual([{ check: 'validate', message: 'validate throws in chatflow: bad graph' }]);
  });

  it('reports a summary that throws or names keys without texts', () => {
    const throws = defineNodePlugin({
      ...base,
      kind: 'summary-throws',
      summary: () => {
        throw new Error('no model');
      },
    });
    expect(runPluginContract(throws)).toEqual([{ check: 'summary', message: 'summary throws for the defaults: no model' }]);
    const untranslated = defineNodePlugin({ ...base, kind: 'summary-keys', summary: () => [{ labelKey: 'summary.url', text: 'x' }, { textKey: 'title' }] });
    expect(runPluginContract(untranslated)).toEqual([{ check: 'i18n', message: 'summary key "summary.url" has no zh and en text' }]);
  });

  it('reports a bad icon and category', () => {
    const p = defineNodePlugin({ ...base, kind: 'iconic', icon: { svg: '<div/>' }, category: 'nope' as 'basic' });
    expect(runPluginContract(p).map((x) => x.message)).toEqual([
      'unknown category nope',
      'icon must be a kebab-case lucide name or an <svg> string',
    ]);
  });

  it('assertPluginContract throws with every problem listed', () => {
    expect(() => assertPluginContract(echo)).not.toThrow();
    const p = defineNodePlugin({ ...base, kind: 'bad', configSchema: z.object({ x: z.string() }) });
    expect(() => assertPluginContract(p)).toThrow(/"bad" breaks its contract:\n- \[defaults\]/);
  });
});

describe('defineNodePlugin', () => {
  it('fills in the defaults of the definition', () => {
    const p = defineNodePlugin({ ...base, kind: 'plain' });
    expect(p).toMatchObject({
      ns: 'node-plain',
      titleKey: 'title',
      descriptionKey: 'description',
      modes: ['agent', 'chatflow', 'workflow', 'agent_team'],
      migrations: [],
      singleton: false,
      deletable: true,
      palette: true,
      targetHandle: true,
    });
    const ctx = { node: { id: 'n', kind: 'plain', kindVersion: 1, title: '', position: { x: 0, y: 0 }, config: {} }, typeOf: () => undefined };
    expect(p.outputs({}, ctx)).toEqual([]);
    expect(p.sourceHandles({}, ctx)).toEqual([{ id: 'source' }]);
    expect(p.validate(ctx.node, undefined as never)).toEqual([]);
    expect(Object.isFrozen(p)).toBe(true);
  });

  it('refuses a bad kind or version when the module loads', () => {
    expect(() => defineNodePlugin({ ...base, kind: 'Bad Kind' })).toThrow(/kind must be lower-case/);
    expect(() => defineNodePlugin({ ...base, kind: 'ok', version: 1.5 })).toThrow(/version must be an integer/);
    expect(() => defineNodePlugin({ ...base, kind: 'ok', version: 0 })).toThrow(/version must be an integer/);
  });

  it('types the config from the schema', () => {
    const p = defineNodePlugin({
      ...base,
      kind: 'typed',
      configSchema: z.object({ city: z.string().default(''), days: z.number().default(1) }),
      outputs: (config) => [{ name: 'days', type: config.days > 1 ? 'array[number]' : 'number' }],
      validate: (node) => (node.config.city.length ? [] : [{ key: 'title' }]),
    });
    // @ts-expect-error `nope` is not in the config
    const wrong = (c: Parameters<typeof p.outputs>[0]) => c.nope;
    expect(wrong).toBeTypeOf('function');
    expect(runPluginContract(p)).toEqual([]);
  });
});
