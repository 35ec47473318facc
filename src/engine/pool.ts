import { parseTextReferences, type TextReference } from '../../schemas/flow';
import type { VariableReader } from '../plugin-sdk/executor';

/** The run-wide variables: `sys.*`, `env.*`, `conversation.*` (conversation ones change during a run). */
export interface RootVariables {
  sys: Record<string, unknown>;
  env: Record<string, unknown>;
  conversation: Record<string, unknown>;
}

// Templates repeat across rounds and runs: parse each once (bounded so odd inputs cannot grow it).
const parsed = new Map<string, TextReference[]>();
function referencesIn(template: string): TextReference[] {
  let refs = parsed.get(template);
  if (!refs) {
    if (parsed.size > 20_000) parsed.clear();
    refs = parseTextReferences(template);
    parsed.set(template, refs);
  }
  return refs;
}

/** How a value reads inside text: strings as they are, nothing as '', the rest as JSON. */
export function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

const hasOwn = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

function walk(value: unknown, path: readonly string[], from: number): unknown {
  let v = value;
  for (let i = from; i < path.length; i++) {
    if (typeof v !== 'object' || v === null || !hasOwn(v, path[i])) return undefined;
    v = (v as Record<string, unknown>)[path[i]];
  }
  return v;
}

/**
 * Node outputs of one scope (the top level, or one round of a container) over its parent's. A
 * container's inner values (`item`, `index`, loop variables) sit under the container's id in the
 * round's pool, shadowing nothing (the container has no outputs yet while its body runs).
 */
export class VariablePool implements VariableReader {
  private readonly outputs = new Map<string, Record<string, unknown>>();

  constructor(
    readonly root: RootVariables,
    readonly parent?: VariablePool,
  ) {}

  set(nodeId: string, outputs: Record<string, unknown>): this {
    this.outputs.set(nodeId, outputs);
    return this;
  }

  outputsOf(nodeId: string): Record<string, unknown> | undefined {
    for (let p: VariablePool | undefined = this; p; p = p.parent) {
      const o = p.outputs.get(nodeId);
      if (o) return o;
    }
    return undefined;
  }

  get(selector: readonly string[]): unknown {
    const head = selector[0];
    const record =
      head === 'sys' ? this.root.sys : head === 'env' ? this.root.env : head === 'conversation' ? this.root.conversation : this.outputsOf(head);
    return record === undefined ? undefined : walk(record, selector, 1);
  }

  has(selector: readonly string[]): boolean {
    return this.get(selector) !== undefined;
  }

  render(template: string): string {
    const refs = referencesIn(template);
    if (!refs.length) return template;
    let out = '';
    let at = 0;
    for (const r of refs) {
      out += template.slice(at, r.start) + stringify(this.get(r.selector));
      at = r.end;
    }
    return out + template.slice(at);
  }
}

/** Literal text and references of a template, in order (for answer streaming). */
export type TemplateSegment = { text: string } | { selector: string[] };

export function templateSegments(template: string): TemplateSegment[] {
  const out: TemplateSegment[] = [];
  let at = 0;
  for (const r of referencesIn(template)) {
    if (r.start > at) out.push({ text: template.slice(at, r.start) });
    out.push({ selector: r.selector });
    at = r.end;
  }
  if (at < template.length) out.push({ text: template.slice(at) });
  return out;
}
