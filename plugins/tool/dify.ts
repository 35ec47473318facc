import { rec, sel, str, text, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';
import { runSettings } from '../shared/dify';

function fromDify(data: Record<string, unknown>, ctx: DifyImportContext) {
  const name = str(data.tool_name);
  ctx.warn('toolNeedsSetup', { node: ctx.node, tool: str(data.tool_label) || name });
  const params = Object.entries(rec(data.tool_parameters)).map(([pname, x]) => {
    const p = rec(x);
    return p.type === 'variable'
      ? { name: pname, source: 'variable', selector: sel(p.value, ctx), text: '' }
      : { name: pname, source: 'text', selector: [], text: text(typeof p.value === 'object' && p.value !== null ? JSON.stringify(p.value) : str(p.value), ctx) };
  });
  // The workspace's tool is not known from a Dify file: the builder picks it again.
  return { toolId: '', functionId: name.slice(0, 200), params, ...runSettings(data) };
}

/** Dify's tool node: its parameters; the workspace's tool is chosen again (reported). */
export const dify: DifyImportHook = { types: ['tool'], import: fromDify };
