import nunjucks from 'nunjucks';
import { defineNodeExecutor, NodeExecutionError } from '../../src/plugin-sdk';
import { templateTransformPlugin } from './manifest';

export const TEMPLATE_ERRORS = { RENDER_FAILED: 'TEMPLATE-RENDER-FAILED' } as const;

// One environment for every run: no loaders (templates cannot include files), autoescape off (the
// output is text, not HTML), and undefined values render as '' like Jinja2's default.
const env = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });

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
