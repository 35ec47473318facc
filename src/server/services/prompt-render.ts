import nunjucks from 'nunjucks';
import type { TemplateType } from '../../../schemas/prompt';
import { fstringVariables } from './prompt-templates';

/**
 * Renders a prompt template with the variables' values (strings), for the debug run. The template
 * is first checked by the same parsers as parse-variables (prompt-templates.ts), so a template
 * that renders here is one that parse-variables accepts.
 *
 * - f-string: `{{`/`}}` become braces, a field `{name…}` becomes the value of `name`. Values are
 *   text, so attribute/index parts, conversions (`!r`) and format specs (`:>10`) are not applied.
 * - jinja2: nunjucks (Jinja's JavaScript port), no loaders, autoescape off, undefined renders ''.
 */

export class TemplateRenderError extends Error {}

const jinja = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });

export function renderTemplate(type: TemplateType, content: string, values: Record<string, string>): string {
  return type === 'jinja2' ? renderJinja2(content, values) : renderFString(content, values);
}

function renderJinja2(content: string, values: Record<string, string>): string {
  try {
    return jinja.renderString(content, { ...values });
  } catch (e) {
    // nunjucks prefixes its messages with "(unknown path)": keep the gist.
    const message = e instanceof Error ? e.message.replace(/^\(unknown path\)\s*/, '').trim() : String(e);
    throw new TemplateRenderError(message);
  }
}

export function renderFString(src: string, values: Record<string, string>): string {
  fstringVariables(src); // throws TemplateSyntaxError on a bad template
  let out = '';
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    if ((c === '{' && src[i + 1] === '{') || (c === '}' && src[i + 1] === '}')) {
      out += c;
      i += 2;
    } else if (c === '{') {
      // The field ends at its matching '}' (a format spec may nest one level of fields).
      let depth = 1;
      let j = i + 1;
      while (j < n && depth > 0) {
        if (src[j] === '{') depth++;
        else if (src[j] === '}') depth--;
        j++;
      }
      const inner = src.slice(i + 1, j - 1);
      const name = inner.split(/[.[!:]/, 1)[0];
      out += values[name] ?? '';
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
