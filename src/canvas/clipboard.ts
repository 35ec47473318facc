import { z } from 'zod';
import { createEdge, FlowEdge, FlowMode, FlowNode, type FlowDocument, type Position } from '../../schemas/flow';
import type { NodeRegistry } from '../plugin-sdk';
import { absolutePosition, descendantsOf, nodeIds, uniqueNodeId } from './store/operations';

/**
 * Copy, cut, paste and duplicate of nodes. The clipboard holds JSON with a type marker, so a flow
 * copied in one app pastes into another (also in another tab) through the system clipboard; when
 * the browser refuses clipboard access, an in-memory copy serves the tab.
 */

export const CLIPBOARD_TYPE = 'weft/flow-nodes';

export const ClipboardPayload = z.object({
  type: z.literal(CLIPBOARD_TYPE),
  version: z.literal(1),
  /** The mode of the flow copied from (kinds that do not fit the target's mode are skipped). */
  mode: FlowMode,
  /** Top-level nodes of the copy have no `parentId` and absolute positions. */
  nodes: z.array(FlowNode),
  edges: z.array(FlowEdge),
});
export type ClipboardPayload = z.infer<typeof ClipboardPayload>;

/**
 * What a copy of `ids` holds: those nodes, everything inside copied containers, and the edges
 * between them. Kinds that may not be deleted (start, a container's start) come only with their
 * container. Undefined when nothing can be copied.
 */
export function copyPayload(doc: FlowDocument, registry: NodeRegistry, ids: Iterable<string>): ClipboardPayload | undefined {
  const wanted = new Set(ids);
  for (const id of descendantsOf(doc, wanted)) wanted.add(id);
  const nodes: FlowNode[] = [];
  for (const n of doc.nodes) {
    if (!wanted.has(n.id)) continue;
    const parentCopied = n.parentId !== undefined && wanted.has(n.parentId);
    if (!parentCopied && registry.get(n.kind)?.deletable === false) continue;
    if (parentCopied) nodes.push(n);
    else {
      const { parentId: _inside, ...rest } = n;
      nodes.push({ ...rest, position: absolutePosition(doc, n.id) });
    }
  }
  if (!nodes.length) return undefined;
  const kept = new Set(nodes.map((n) => n.id));
  const edges = doc.edges.filter((e) => kept.has(e.source) && kept.has(e.target));
  return { type: CLIPBOARD_TYPE, version: 1, mode: doc.mode, nodes, edges };
}

export const serializePayload = (payload: ClipboardPayload) => JSON.stringify(payload);

/** The payload in a clipboard text, or undefined for anything else (plain text, another app's JSON). */
export function parsePayload(text: string | undefined): ClipboardPayload | undefined {
  if (!text || !text.includes(CLIPBOARD_TYPE)) return undefined;
  try {
    const r = ClipboardPayload.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

export interface PasteOptions {
  /** Where the copy's top-left goes (canvas coordinates, e.g. the pointer). */
  at?: Position;
  /** Without `at`: how far from the originals the copy lands (default 40, 40). */
  offset?: Position;
  /** A container to paste into (top-level nodes of the copy go inside it). */
  parentId?: string;
}

export interface PreparedPaste {
  nodes: FlowNode[];
  edges: FlowEdge[];
  /** Old id → new id of every pasted node. */
  idMap: Map<string, string>;
  /** Ids (in the payload) of nodes left out: unknown kind, wrong mode, a second singleton. */
  skipped: string[];
}

/**
 * The nodes and edges a paste inserts: new ids, references to pasted nodes (`[nodeId, …]`
 * selectors and `{{#nodeId.path#}}` in texts) rewritten to the new ids, containers' children
 * moved along. References to nodes that were not copied are kept as they are.
 */
export function preparePaste(doc: FlowDocument, registry: NodeRegistry, payload: ClipboardPayload, opts: PasteOptions = {}): PreparedPaste {
  const byId = new Map(payload.nodes.map((n) => [n.id, n]));
  const scope = opts.parentId ?? null;
  const skipped = new Set<string>();
  const singletonsTaken = new Set(doc.nodes.filter((n) => (n.parentId ?? null) === scope).map((n) => n.kind));
  for (const n of payload.nodes) {
    const plugin = registry.get(n.kind);
    const isRoot = !n.parentId || !byId.has(n.parentId);
    if (!plugin || !plugin.modes.includes(doc.mode)) skipped.add(n.id);
    else if (isRoot && plugin.singleton && singletonsTaken.has(n.kind)) skipped.add(n.id);
  }
  for (const id of descendantsOf({ ...doc, nodes: payload.nodes }, skipped)) skipped.add(id);

  const taken = nodeIds(doc);
  const idMap = new Map<string, string>();
  for (const n of payload.nodes) {
    if (skipped.has(n.id)) continue;
    const id = uniqueNodeId(n.kind, taken);
    taken.add(id);
    idMap.set(n.id, id);
  }

  const roots = payload.nodes.filter((n) => idMap.has(n.id) && !(n.parentId && idMap.has(n.parentId)));
  const minX = Math.min(...roots.map((n) => n.position.x));
  const minY = Math.min(...roots.map((n) => n.position.y));
  const offset = opts.at ? { x: opts.at.x - minX, y: opts.at.y - minY } : (opts.offset ?? { x: 40, y: 40 });
  const base = scope ? absolutePosition(doc, scope) : { x: 0, y: 0 };

  const nodes: FlowNode[] = [];
  for (const n of payload.nodes) {
    const id = idMap.get(n.id);
    if (!id) continue;
    const inner = n.parentId !== undefined && idMap.has(n.parentId);
    const { parentId: _old, ...rest } = registry.migrate(n);
    const moved: FlowNode = inner
      ? { ...rest, id, parentId: idMap.get(n.parentId!)! }
      : {
          ...rest,
          id,
          position: { x: n.position.x + offset.x - base.x, y: n.position.y + offset.y - base.y },
          ...(scope ? { parentId: scope } : {}),
        };
    nodes.push(registry.remapReferences(moved, idMap));
  }
  const edges = payload.edges
    .filter((e) => idMap.has(e.source) && idMap.has(e.target))
    .map((e) => createEdge(idMap.get(e.source)!, idMap.get(e.target)!, e.sourceHandle, e.targetHandle));
  return { nodes, edges, idMap, skipped: [...skipped] };
}

/** Where copies go: the system clipboard when the browser allows it, else memory. */
export interface ClipboardAdapter {
  write(text: string): Promise<void>;
  /** The clipboard's text; undefined when there is none. */
  read(): Promise<string | undefined>;
}

type SystemClipboard = Pick<Clipboard, 'readText' | 'writeText'>;

/**
 * A clipboard over `navigator.clipboard` with an in-memory fallback: a copy is kept in memory too,
 * and a paste reads memory only when the system clipboard cannot be read (no permission, no
 * secure context). When the system clipboard holds other text, that wins: the builder copied
 * something else since.
 */
export function createClipboard(system: SystemClipboard | null | undefined = globalThis.navigator?.clipboard): ClipboardAdapter {
  let memory: string | undefined;
  return {
    async write(text) {
      memory = text;
      try {
        await system?.writeText(text);
      } catch {
        // Refused (no focus, no permission): memory keeps the copy for this tab.
      }
    },
    async read() {
      if (!system) return memory;
      try {
        return await system.readText();
      } catch {
        return memory;
      }
    },
  };
}
