import nunjucks from 'nunjucks';
import { defineNodeExecutor, NodeExecutionError } from '../../src/plugin-sdk';
import { templateTransformPlugin } from './manifest';

export const TEMPLATE_ERRORS = { RENDER_FAILED: 'TEMPLATE-RENDER-FAILED' } as const;

// One environment for every run: no loaders (templates cannot include files), autoescape off (the
// output is text, not HTML), and undefined values render as '' like Jinja2's default.
const env = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });
// Jinja2's join takes any iterable, a string as its characters (Dify templates do `text | join(...)`);
// nunjucks' own calls arr.join and fails on a string.
env.addFilter('join', (value: unknown, separator: unknown = '', attribute?: unknown) => {
  const items: unknown[] = value == null ? [] : typeof value === 'string' ? Array.from(value) : Array.isArray(value) ? value : typeof value === 'object' && Symbol.iterator in value ? Array.from(value as Iterable<unknown>) : [value];
  const picked = attribute === undefined || attribute === null ? items : items.map((i) => (i as Record<string, unknown> | null)?.[String(attribute)]);
  return picked.map((i) => (i == null ? '' : String(i))).join(String(separator ?? ''));
});

/** Renders the Jinja2 template (nunjucks, its JavaScript port) over the inputs by name. */
export const templateTransformExecutor = defineNodeExecutor(templateTransformPlugin, {
  execute({ config, variables }) {
    const context: Record<string, unknown> = {};
    for (const i of config.inputs) if (i.name) context[i.name] = variables.get(i.selector) ?? null;
    try {
      return { outputs: { output: env.renderString(config.template, context) } };
    } catch (e) {
      // nunjucks prefixes its messages with "(unknown path)" and a stack-like trail: keep the gist.
      const message = e instanceof Error ? e.message.replace(/^\(unknown path\)\s*/, '').trim() : String(e);
      throw new NodeExecutionError(TEMPLATE_ERRORS.RENDER_FAILED, `The template could not be rendered: ${message}`);
    }
  },
});

export default templateTransformExecutor;
