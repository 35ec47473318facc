import type { FlowDocument, FlowEdge, FlowNode } from '../../../schemas/flow';
import type { FlowState } from './state';

/**
 * Selectors for `useFlowStore`. Lookups by id go through an index built once per nodes (or edges)
 * array, so a thousand node components each selecting their own node cost one pass per change,
 * not a thousand. Unchanged nodes keep their identity across edits (immer shares them), so a
 * component selecting one re-renders only when that node changes.
 */

const nodeIndexes = new WeakMap<readonly FlowNode[], Map<string, FlowNode>>();
const edgeIndexes = new WeakMap<readonly FlowEdge[], Map<string, FlowEdge>>();

/** Node id → node, cached per nodes array. */
export function nodeIndex(doc: FlowDocument): ReadonlyMap<string, FlowNode> {
  let index = nodeIndexes.get(doc.nodes);
  if (!index) {
    index = new Map(doc.nodes.map((n) => [n.id, n]));
    nodeIndexes.set(doc.nodes, index);
  }
  return index;
}

/** Edge id → edge, cached per edges array. */
export function edgeIndex(doc: FlowDocument): ReadonlyMap<string, FlowEdge> {
  let index = edgeIndexes.get(doc.edges);
  if (!index) {
    index = new Map(doc.edges.map((e) => [e.id, e]));
    edgeIndexes.set(doc.edges, index);
  }
  return index;
}

/** @example const node = useFlowStore(selectNode(id)); */
export const selectNode =
  (id: string) =>
  (s: FlowState): FlowNode | undefined =>
    nodeIndex(s.document).get(id);

/** @example const selected = useFlowStore(selectIsSelected(id)); */
export const selectIsSelected =
  (id: string) =>
  (s: FlowState): boolean =>
    s.view.selection.nodes.includes(id);

/** @example const status = useFlowStore(selectRunStatus(id)); */
export const selectRunStatus = (id: string) => (s: FlowState) => s.view.runStatus[id];
