import { createEdge, FlowDocument, type FlowMode, type FlowNode, type NodeConfig } from '../../schemas/flow';
import { createFlowGraph, createNodeRegistry, type NodeIssue } from '../../src/plugin-sdk';
import { loadBuiltinKinds } from '../../src/server/plugins/builtins';

/** The built-in kinds as the server loads them (manifests and executors, from the one list). */
export const builtins = await loadBuiltinKinds();

/** Builders for the plugin tests: a registry of the built-in kinds, nodes with defaults, flows. */
export const registry = createNodeRegistry(builtins.plugins);

export function node(id: string, kind: string, config: NodeConfig = {}, extra: Partial<FlowNode> = {}): FlowNode {
  const p = registry.get(kind);
  if (!p) throw new Error(`unknown kind ${kind}`);
  return { id, kind, kindVersion: p.version, title: '', position: { x: 0, y: 0 }, config: { ...registry.defaults(kind), ...config }, ...extra };
}

/** A flow of the mode; edges as `[source, target, sourceHandle?]`. */
export function flow(mode: FlowMode, nodes: FlowNode[], edges: [string, string, string?][] = [], variables?: FlowDocument['variables']): FlowDocument {
  return FlowDocument.parse({
    schemaVersion: 1,
    mode,
    nodes,
    edges: edges.map(([s, t, h]) => createEdge(s, t, h)),
    ...(variables ? { variables } : {}),
  });
}

/** `key` (plugin issues) or `sdk:key` (the registry's own checks) of one node's issues. */
export function issueKeys(doc: FlowDocument, nodeId: string): string[] {
  return registry
    .validateFlow(doc)
    .filter((i: NodeIssue) => i.nodeId === nodeId)
    .map((i) => (i.ns === 'node-sdk' ? `sdk:${i.key}` : i.key));
}

export const graphOf = (doc: FlowDocument) => createFlowGraph(doc);
export const outputsOf = (doc: FlowDocument, id: string) => registry.outputsOf(doc.nodes.find((n) => n.id === id)!, createFlowGraph(doc));
export const handlesOf = (n: FlowNode) => registry.sourceHandlesOf(n).map((h) => h.id);
