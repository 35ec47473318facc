import { parse } from 'yaml';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createEdge, type FlowDocument } from '../../../schemas/flow';
import { createNodeRegistry, defineNodePlugin } from '../../plugin-sdk';
import { builtinPlugins } from '../builtin-plugins';
import en from '../../i18n/locales/en/dsl';
import zh from '../../i18n/locales/zh/dsl';
import { exportFlowYaml, importFlowYaml } from './flow-yaml';
import { DSL_ERROR_KEYS, DSL_WARNING_KEYS } from './messages';

const registry = createNodeRegistry(builtinPlugins);

/** A chatflow with a multi-line prompt, a secret and a conversation variable. */
function sample(): FlowDocument {
  const doc = registry.createFlow('chatflow');
  const { node: llm } = registry.createNode('llm', { id: 'llm1', position: { x: 400, y: 240 } });
  llm.config.prompts = [
    { role: 'system', text: 'You are helpful.\n\nUse {{#env.TONE#}} and a very long line '.repeat(4) },
    { role: 'user', text: '{{#sys.query#}}' },
  ];
  return {
    ...doc,
    nodes: [...doc.nodes, llm],
    edges: [...doc.edges, createEdge('start', 'llm1')],
    variables: {
      env: [
        { id: 'e1', name: 'TONE', type: 'string', value: 'friendly', description: '' },
        { id: 'e2', name: 'API_KEY', type: 'secret', value: 'sk-should-not-leave', description: 'key' },
      ],
      conversation: [{ id: 'c1', name: 'topic', type: 'string', value: '', description: '' }],
    },
    notes: 'Draft for the support team',
  };
}

describe('exportFlowYaml / importFlowYaml', () => {
  it('round-trips a flow, without the values of secrets', () => {
    const doc = sample();
    const text = exportFlowYaml(doc, { name: 'Support bot', description: 'Answers', icon: 'bot', iconColor: '#2563eb' });
    expect(text).not.toContain('sk-should-not-leave');
    const file = parse(text);
    expect(file).toMatchObject({ kind: 'weft-flow', version: 1, app: { name: 'Support bot', mode: 'chatflow', icon: 'bot' } });
    const r = importFlowYaml(text, registry, { mode: 'chatflow' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.app).toEqual({ name: 'Support bot', description: 'Answers', mode: 'chatflow', icon: 'bot', iconColor: '#2563eb' });
    const env = doc.variables.env.map((v) => (v.type === 'secret' ? { id: v.id, name: v.name, type: v.type, description: v.description } : v));
    expect(r.document).toEqual({ ...doc, variables: { ...doc.variables, env } });
  });

  it('migrates nodes of an older kind version', () => {
    const v2 = defineNodePlugin({
      kind: 'greeting',
      version: 2,
      category: 'basic',
      icon: { lucide: 'hand' },
      i18n: { zh: { title: '问候', description: '问候' }, en: { title: 'Greeting', description: 'Greeting' } },
      configSchema: z.object({ greeting: z.string().default('') }),
      migrations: [{ from: 1, up: (c) => ({ greeting: String(c.text ?? '') }) }],
    });
    const withGreeting = registry.extend([v2]);
    const doc = sample();
    const old = { ...doc, nodes: [...doc.nodes, { id: 'g', kind: 'greeting', kindVersion: 1, title: '', position: { x: 0, y: 0 }, config: { text: 'hi' } }] };
    const r = importFlowYaml(exportFlowYaml(old, { name: 'x' }), withGreeting);
    expect(r.ok && r.migrated).toEqual(['g']);
    expect(r.ok && r.document.nodes.find((n) => n.id === 'g')).toMatchObject({ kindVersion: 2, config: { greeting: 'hi' } });
    // The same file against the registry without the kind is refused with a clear reason.
    expect(importFlowYaml(exportFlowYaml(old, { name: 'x' }), registry)).toEqual({ ok: false, errors: [{ key: 'errors.kindUnknown', params: { node: 'g', kind: 'greeting' } }] });
  });

  it('refuses a kind version newer than the registry', () => {
    const doc = sample();
    const newer = { ...doc, nodes: doc.nodes.map((n) => (n.id === 'llm1' ? { ...n, kindVersion: 9 } : n)) };
    expect(importFlowYaml(exportFlowYaml(newer, { name: 'x' }), registry)).toEqual({
      ok: false,
      errors: [{ key: 'errors.versionTooNew', params: { node: 'llm1', kind: 'llm', version: 9, current: 1 } }],
    });
  });

  it('reports schema problems with their path', () => {
    const doc = sample();
    const broken = { ...doc, edges: [...doc.edges, createEdge('llm1', 'ghost')] };
    const r = importFlowYaml(exportFlowYaml(broken, { name: 'x' }), registry);
    expect(r.ok).toBe(false);
    const at = `edges.${broken.edges.length - 1}.target`;
    if (!r.ok) expect(r.errors).toContainEqual({ key: 'errors.documentInvalid', params: { path: at, message: expect.stringContaining('ghost') } });
  });

  it('refuses other files, other modes and other versions', () => {
    const text = exportFlowYaml(sample(), { name: 'x' });
    expect(importFlowYaml(text, registry, { mode: 'workflow' })).toEqual({ ok: false, errors: [{ key: 'errors.modeMismatch', params: { mode: 'chatflow', expected: 'workflow' } }] });
    expect(importFlowYaml(text.replace('version: 1', 'version: 7'), registry)).toEqual({ ok: false, errors: [{ key: 'errors.versionUnsupported', params: { version: '7' } }] });
    expect(importFlowYaml('kind: app\napp: { mode: workflow }\nworkflow: { graph: { nodes: [] } }', registry)).toEqual({ ok: false, errors: [{ key: 'errors.difyFile' }] });
    expect(importFlowYaml('a: [1, 2', registry)).toMatchObject({ ok: false, errors: [{ key: 'errors.yamlInvalid' }] });
    expect(importFlowYaml('x'.repeat(21 * 1024 * 1024), registry)).toEqual({ ok: false, errors: [{ key: 'errors.tooLarge', params: { max: 20 } }] });
  });
});

describe('dsl texts', () => {
  const keys = [...DSL_ERROR_KEYS.map((k) => ['errors', k]), ...DSL_WARNING_KEYS.map((k) => ['warnings', k])] as [string, string][];
  it.each(keys)('has zh and en text for %s.%s', (group, key) => {
    expect(typeof (zh as Record<string, Record<string, unknown>>)[group][key]).toBe('string');
    expect(typeof (en as Record<string, Record<string, unknown>>)[group][key]).toBe('string');
  });
});
