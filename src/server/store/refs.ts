import type { StoreRefKind } from '../../../schemas/store';

/**
 * What an app's flow document refers to in its project space, and the remapping of those references
 * when the app is copied into another space. Pure: no database. Today's node kinds refer to knowledge
 * bases (knowledge-retrieval `datasetIds`, agent `knowledgeIds`) and tools (tool `toolId` +
 * `functionId`, agent `tools[].providerId` + `name`, mcp `serverId`); no node kind names a prompt or a
 * database yet (their kinds are in the contract for when one does).
 *
 * A reference left without a target is CLEARED (an id of another space would be silently broken):
 * a tool, agent tool or MCP node then fails the checklist (toolMissing, toolIncomplete, serverMissing)
 * and a knowledge-retrieval node with no base left fails it too (datasetsEmpty); the copy's answer
 * lists every one of them.
 */

export interface FoundRef {
  kind: StoreRefKind;
  sourceId: string;
  nodeIds: string[];
  /** Tools: function ids the flow uses (agent tools of type `tool` and tool nodes). */
  functionIds: string[];
}

type Node = { id: string; kind: string; config?: Record<string, unknown> };
type Doc = { nodes?: Node[] } & Record<string, unknown>;

/** The built-in tools' provider id: not a resource of the space. */
export const BUILTIN_PROVIDER = 'builtin';

export const refKey = (kind: StoreRefKind, id: string) => `${kind}:${id}`;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : []);

/** Every reference of the document, one entry per (kind, id), with the nodes that use it. */
export function collectRefs(doc: Doc): FoundRef[] {
  const found = new Map<string, FoundRef>();
  const add = (kind: StoreRefKind, id: unknown, nodeId: string, functionId?: unknown) => {
    if (typeof id !== 'string' || !id || id === BUILTIN_PROVIDER) return;
    const key = refKey(kind, id);
    const ref = found.get(key) ?? { kind, sourceId: id, nodeIds: [], functionIds: [] };
    if (!ref.nodeIds.includes(nodeId)) ref.nodeIds.push(nodeId);
    if (typeof functionId === 'string' && functionId && !ref.functionIds.includes(functionId)) ref.functionIds.push(functionId);
    found.set(key, ref);
  };
  for (const n of doc.nodes ?? []) {
    const c = n.config ?? {};
    if (n.kind === 'knowledge-retrieval') for (const id of strings(c.datasetIds)) add('dataset', id, n.id);
    if (n.kind === 'agent') {
      for (const id of strings(c.knowledgeIds)) add('dataset', id, n.id);
      for (const t of Array.isArray(c.tools) ? (c.tools as { type?: string; providerId?: string; name?: string }[]) : []) {
        add('tool', t.providerId, n.id, t.type === 'mcp' ? undefined : t.name);
      }
    }
    if (n.kind === 'tool') add('tool', c.toolId, n.id, c.functionId);
    if (n.kind === 'mcp') add('tool', c.serverId, n.id);
  }
  return [...found.values()];
}

/** Where a reference goes in the copy: the target's id and, for tools, source function id → target function id. */
export interface RefTarget {
  id: string;
  functions?: Map<string, string>;
}

/**
 * The document with each reference replaced by its target, or cleared when `targets` has none for it
 * (see the module comment). Returns a new document; the input is not changed.
 */
export function remapDocument<T extends Doc>(doc: T, targets: Map<string, RefTarget | null>): T {
  const copy = structuredClone(doc);
  const target = (kind: StoreRefKind, id: unknown) => (typeof id === 'string' && id && id !== BUILTIN_PROVIDER ? (targets.get(refKey(kind, id)) ?? null) : undefined);
  const fn = (t: RefTarget, id: unknown) => (typeof id === 'string' ? (t.functions?.get(id) ?? '') : '');
  const ids = (v: unknown) =>
    strings(v).flatMap((id) => {
      const t = target('dataset', id);
      return t ? [t.id] : [];
    });
  for (const n of copy.nodes ?? []) {
    const c = n.config;
    if (!c) continue;
    if (n.kind === 'knowledge-retrieval') c.datasetIds = ids(c.datasetIds);
    if (n.kind === 'agent') {
      c.knowledgeIds = ids(c.knowledgeIds);
      if (Array.isArray(c.tools)) {
        c.tools = (c.tools as { type?: string; providerId?: string; name?: string }[]).map((tool) => {
          const t = target('tool', tool.providerId);
          if (t === undefined) return tool;
          if (!t) return { ...tool, providerId: '', name: tool.type === 'mcp' ? (tool.name ?? '') : '' };
          return { ...tool, providerId: t.id, name: tool.type === 'mcp' ? (tool.name ?? '') : fn(t, tool.name) };
        });
      }
    }
    if (n.kind === 'tool') {
      const t = target('tool', c.toolId);
      if (t !== undefined) {
        c.toolId = t ? t.id : '';
        c.functionId = t ? fn(t, c.functionId) : '';
      }
    }
    if (n.kind === 'mcp') {
      const t = target('tool', c.serverId);
      if (t !== undefined) c.serverId = t ? t.id : '';
    }
  }
  return copy;
}
