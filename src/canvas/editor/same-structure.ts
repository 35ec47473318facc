import type { FlowDocument } from '../../../schemas/flow';

/**
 * Whether two documents look the same to everything but the layout: the same nodes (kind, title,
 * container, config), edges and variables. A drag only moves positions, so it rebuilds neither the
 * inspector's graph and variable lists nor the checklist. Identity checks only (immer keeps
 * unchanged parts).
 */
export function sameStructure(a: FlowDocument, b: FlowDocument): boolean {
  if (a === b) return true;
  if (a.edges !== b.edges || a.variables !== b.variables || a.mode !== b.mode || a.nodes.length !== b.nodes.length) return false;
  return a.nodes.every((n, i) => {
    const m = b.nodes[i];
    return n === m || (n.id === m.id && n.kind === m.kind && n.title === m.title && n.parentId === m.parentId && n.config === m.config);
  });
}
