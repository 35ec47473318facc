import type { ToolParameterOption } from './context';

/** A row of a tool or MCP node's params list (plugins/shared/tool-params.ts `ToolParam`). */
export interface ToolParamRow {
  name: string;
  source: 'variable' | 'text';
  selector: string[];
  text: string;
}

const isRow = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The params list for a newly chosen function: one row per parameter it takes, in its order. A row
 * the node already had under the same name keeps its source and value (switching between functions
 * that share parameters loses nothing); rows of parameters the function does not take are dropped.
 * @example paramsFor([{ name: 'q', source: 'text', text: 'hi', selector: [] }], [{ name: 'q' }, { name: 'limit' }])
 * // → q keeps 'hi', limit is a new empty text row
 */
export function paramsFor(current: unknown, parameters: readonly ToolParameterOption[]): ToolParamRow[] {
  const rows = (Array.isArray(current) ? current : []).filter(isRow);
  return parameters.map((p) => {
    const old = rows.find((r) => r.name === p.name);
    if (!old) return { name: p.name, source: 'text', selector: [], text: '' };
    return {
      name: p.name,
      source: old.source === 'variable' ? 'variable' : 'text',
      selector: Array.isArray(old.selector) ? (old.selector as string[]) : [],
      text: typeof old.text === 'string' ? old.text : '',
    };
  });
}
