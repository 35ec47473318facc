import { describe, expect, it } from 'vitest';
import type { AnyNodePlugin, NodeConfig } from '../src/plugin-sdk';
import { builtins } from '../tests/plugins/helpers';

/** What each built-in kind shows under its title on the canvas (Dify's node summaries). */
const summary = (kind: string, config: NodeConfig) => {
  const plugin = builtins.plugins.find((p) => p.kind === kind) as AnyNodePlugin;
  return plugin.summary(plugin.configSchema.parse(config));
};

describe('built-in node summaries', () => {
  it('name the model of the model kinds, and nothing before one is chosen', () => {
    const model = { provider: 'openai', name: 'gpt-4o-mini' };
    for (const kind of ['llm', 'question-classifier', 'parameter-extractor', 'agent']) {
      expect(summary(kind, { model })).toEqual([{ text: 'gpt-4o-mini' }]);
      expect(summary(kind, {})).toEqual([]);
    }
    expect(summary('agent', { model, tools: [{ providerId: 't1', name: 'f' }, { providerId: 't2', name: 'g', enabled: false }] })).toEqual([
      { text: 'gpt-4o-mini' },
      { labelKey: 'fields.tools', text: '1' },
    ]);
  });

  it('list the knowledge bases, the tool and the MCP server by id for the canvas to name', () => {
    expect(summary('knowledge-retrieval', { datasetIds: ['kb1', 'kb2'] })).toEqual([{ refs: { resource: 'knowledgeBases', ids: ['kb1', 'kb2'] } }]);
    expect(summary('tool', { toolId: 't1', functionId: 'getWeather' })).toEqual([{ refs: { resource: 'tools', ids: ['t1'] } }, { text: 'getWeather', mono: true }]);
    expect(summary('mcp', { serverId: 'm1', toolName: 'search' })).toEqual([{ refs: { resource: 'mcpServers', ids: ['m1'] } }, { text: 'search', mono: true }]);
    expect(summary('tool', {})).toEqual([]);
  });

  it('count the conditions of an if/else, show the first lines of code and the method with the URL', () => {
    const cond = { variable: ['start', 'q'], operator: 'contains', value: 'x' };
    expect(summary('if-else', { cases: [{ id: 'true', conditions: [cond, cond] }, { id: 'c2', conditions: [cond] }] })).toEqual([{ labelKey: 'fields.cases', text: '3' }]);
    expect(summary('code', { code: '\n// sum\nfunction main({ a }) {\n  return { r: a };\n}' })).toEqual([
      { text: '// sum', mono: true },
      { text: 'function main({ a }) {', mono: true },
    ]);
    expect(summary('http-request', { method: 'post', url: ' https://api.example.com/v1/{{#start.q#}} ' })).toEqual([{ text: 'POST https://api.example.com/v1/{{#start.q#}}', mono: true }]);
    expect(summary('start', { variables: [{ name: 'q' }, { name: 'lang' }] })).toEqual([{ labelKey: undefined, text: 'q, lang' }]);
  });
});
