import { z } from 'zod';
import { FlowDocument, type FlowDocumentInput, type FlowEdge, type FlowNode } from '../../schemas/flow';
import { createNodeRegistry, defineNodePlugin, MaybeSelector, Template } from '../plugin-sdk';
import { answer, branch, echo, end, repeat, repeatStart, start } from '../plugin-sdk/samples.fixture';
import { createFlowStore, type FlowStoreOptions } from './store/create-flow-store';

/**
 * Small node kinds for the canvas tests (not product kinds; the core never imports plugins/):
 * the SDK's samples plus a sticky note, a kind that lives only at the top level and a chat-only
 * kind with a selector and a template.
 */

const texts = (title: string) => ({ zh: { title, description: title }, en: { title, description: title } });

export const note = defineNodePlugin({
  kind: 'note',
  version: 1,
  category: 'annotation',
  icon: { lucide: 'sticky-note' },
  i18n: texts('Note'),
  configSchema: z.object({ text: z.string().default('') }),
  sourceHandles: [],
  targetHandle: false,
});

/** Only at the top level (like Dify's nodes that cannot go into an iteration). */
export const rooted = defineNodePlugin({
  kind: 'rooted',
  version: 1,
  category: 'basic',
  icon: { lucide: 'anchor' },
  i18n: texts('Rooted'),
  configSchema: z.object({}),
  parents: ['root'],
});

/** A chat-only step that reads a variable and writes text with references. */
export const reply = defineNodePlugin({
  kind: 'reply',
  version: 1,
  category: 'basic',
  icon: { lucide: 'message-circle' },
  i18n: texts('Reply'),
  configSchema: z.object({ input: MaybeSelector.default([]), text: Template.default('') }),
  outputs: [{ name: 'text', type: 'string' }],
  modes: ['chatflow', 'agent'],
});

export const canvasPlugins = [start, end, answer, echo, branch, repeat, repeatStart, note, rooted, reply];
export const registry = createNodeRegistry(canvasPlugins);

export const node = (id: string, kind: string, extra: Partial<FlowNode> = {}): FlowNode => ({
  id,
  kind,
  kindVersion: registry.get(kind)?.version ?? 1,
  title: '',
  position: { x: 0, y: 0 },
  config: registry.has(kind) ? registry.defaults(kind) : {},
  ...extra,
});

export const edge = (source: string, target: string, sourceHandle = 'source'): FlowEdge => ({
  id: `${source}-${sourceHandle}-${target}-target`,
  source,
  sourceHandle,
  target,
  targetHandle: 'target',
});

/** A valid document (parsed, so structural mistakes in a test show at once). */
export const flow = (input: Partial<FlowDocumentInput> & Pick<FlowDocumentInput, 'nodes'>): FlowDocument =>
  FlowDocument.parse({ schemaVersion: 1, mode: 'workflow', edges: [], ...input });

/**
 * start → a (echo) → b (echo) → end, and a `repeat` container `loop` (with its start `loop-start`
 * and one echo `inner` inside) at (1000, 0).
 */
export function sampleFlow(): FlowDocument {
  return flow({
    nodes: [
      node('start', 'start'),
      node('a', 'echo', { position: { x: 300, y: 0 } }),
      node('b', 'echo', { position: { x: 600, y: 0 }, config: { text: 'hi {{#a.text#}}', source: ['a', 'text'], upper: false, tags: [] } }),
      node('end', 'end', { position: { x: 900, y: 0 } }),
      node('loop', 'repeat', { position: { x: 1000, y: 400 }, width: 600, height: 300 }),
      node('loop-start', 'repeat-start', { parentId: 'loop', position: { x: 24, y: 68 } }),
      node('inner', 'echo', { parentId: 'loop', position: { x: 200, y: 60 } }),
    ],
    edges: [edge('start', 'a'), edge('a', 'b'), edge('b', 'end'), edge('loop-start', 'inner')],
  });
}

export const makeStore = (over: Partial<FlowStoreOptions> = {}) =>
  createFlowStore({ registry, mode: 'workflow', document: sampleFlow(), ...over });
