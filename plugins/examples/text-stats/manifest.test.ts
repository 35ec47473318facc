import { describe, expect, it } from 'vitest';
import { builtins } from '../../../tests/plugins/helpers';
import { FlowDocument } from '../../../schemas/flow';
import { createFlowGraph, createNodeRegistry, runPluginContract } from '../../../src/plugin-sdk';
import { textStats, textStatsPlugin } from './manifest';

// A plugin author's test: the contract, then what the plugin itself computes and checks.
const registry = createNodeRegistry(builtins.plugins).extend([textStatsPlugin]);

describe('text-stats (example plugin)', () => {
  it('keeps the plugin contract', () => {
    expect(runPluginContract(textStatsPlugin)).toEqual([]);
  });

  it('drops the words output when words are not counted', () => {
    const node = registry.createNode('text-stats', { id: 'ts', position: { x: 0, y: 0 } }).node;
    expect(registry.outputsOf(node).map((p) => p.name)).toEqual(['characters', 'words', 'lines']);
    expect(registry.outputsOf({ ...node, config: { ...node.config, countWords: false } }).map((p) => p.name)).toEqual(['characters', 'lines']);
  });

  it('migrates a version 1 node', () => {
    const old = { id: 'ts', kind: 'text-stats', kindVersion: 1, title: '', position: { x: 0, y: 0 }, config: { input: ['start', 'text'] } };
    expect(registry.migrate(old)).toMatchObject({ kindVersion: 2, config: { source: ['start', 'text'], countWords: true } });
  });

  it('asks for its text variable in a flow', () => {
    const doc = FlowDocument.parse(registry.createFlow('workflow'));
    const { node } = registry.createNode('text-stats', { id: 'ts', position: { x: 0, y: 0 } });
    const issues = registry.validateNode(node, createFlowGraph({ ...doc, nodes: [...doc.nodes, node] }));
    expect(issues.map((i) => `${i.ns}:${i.key}`)).toEqual(['node-text-stats:issues.sourceMissing']);
  });

  it('counts characters, words and lines', () => {
    expect(textStats('  hello wide\nworld  ', { countWords: true, trim: true })).toEqual({ characters: 16, words: 3, lines: 2 });
    expect(textStats('', { countWords: false, trim: false })).toEqual({ characters: 0, lines: 0 });
  });
});
