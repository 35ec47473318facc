import type { FlowDocument } from '../../schemas/flow';
import type { ConfigReference, NodeRegistry } from '../plugin-sdk';

/** A reference in one node's config to a node that is about to go (or be renamed). */
export interface IncomingReference extends ConfigReference {
  /** The node whose config holds the reference. */
  nodeId: string;
}

/**
 * Every reference (selectors and `{{#nodeId.path#}}` in texts) from other nodes to `targets`:
 * what breaks when they are deleted. The delete confirmation lists these, each clicking through
 * to the node. References between the targets themselves are left out (they go together).
 * @example
 * const broken = referencesTo(store.toDocument(), store.registry, ['llm1']);
 * broken.map((r) => `${r.nodeId}: {{#${r.selector.join('.')}#}}`);
 */
export function referencesTo(doc: FlowDocument, registry: NodeRegistry, targets: Iterable<string>): IncomingReference[] {
  const gone = new Set(targets);
  const out: IncomingReference[] = [];
  for (const n of doc.nodes) {
    if (gone.has(n.id)) continue;
    for (const ref of registry.referencesOf(n)) if (gone.has(ref.selector[0])) out.push({ ...ref, nodeId: n.id });
  }
  return out;
}
