import { formatTextReference, parseTextReferences } from '../../../schemas/flow';

/**
 * Text fields with `{{#nodeId.path#}}` references: cutting a text into plain parts and reference
 * tokens (for highlighting), finding an autocompletion trigger at the caret, and inserting a chosen
 * reference. Pure string work, no DOM.
 */

export type TemplateSegment = { kind: 'text'; text: string; start: number } | { kind: 'ref'; text: string; start: number; selector: string[] };

/**
 * The text cut into plain parts and references, in order (joined back they give the text).
 * @example tokenize('Hi {{#sys.query#}}!') // [text 'Hi ', ref sys.query, text '!']
 */
export function tokenize(text: string): TemplateSegment[] {
  const out: TemplateSegment[] = [];
  let at = 0;
  for (const r of parseTextReferences(text)) {
    if (r.start > at) out.push({ kind: 'text', text: text.slice(at, r.start), start: at });
    out.push({ kind: 'ref', text: r.text, start: r.start, selector: r.selector });
    at = r.end;
  }
  if (at < text.length) out.push({ kind: 'text', text: text.slice(at), start: at });
  return out;
}

/** An open autocompletion: the trigger starts at `start`, `query` is what was typed after it. */
export interface TemplateTrigger {
  start: number;
  query: string;
}

const QUERY_RE = /^[A-Za-z0-9_.-]*$/;

/**
 * The autocompletion trigger ending at the caret: a `{` (also `{{` or `{{#`) or a `/`, followed by
 * an identifier-like query, not inside a finished reference. Null when the caret is elsewhere.
 * @example findTrigger('Hello {{#ll', 11) // { start: 6, query: 'll' }
 */
export function findTrigger(text: string, caret: number): TemplateTrigger | null {
  const before = text.slice(0, caret);
  // Inside a finished reference: no completion.
  for (const r of parseTextReferences(text)) if (caret > r.start && caret < r.end) return null;
  const brace = before.lastIndexOf('{');
  const slash = before.lastIndexOf('/');
  const at = Math.max(brace, slash);
  if (at < 0) return null;
  let start = at;
  let rest = before.slice(at + 1);
  if (at === brace) {
    // `{`, `{{` and `{{#` all open the same completion.
    while (start > 0 && before[start - 1] === '{') start--;
    rest = rest.replace(/^#/, '');
  } else if (at > 0 && /[\w:/]/.test(before[at - 1])) {
    // A slash inside a word or a URL (`a/b`, `https://`) is not a trigger.
    return null;
  }
  return QUERY_RE.test(rest) ? { start, query: rest } : null;
}

/**
 * The text with the trigger (from `trigger.start` to the caret) replaced by the reference, and
 * the caret after it. Without a trigger, the reference goes at the caret.
 * @example insertReference('Hi {ll', 6, ['llm1', 'text'], { start: 3, query: 'll' }) // { text: 'Hi {{#llm1.text#}}', caret: 18 }
 */
export function insertReference(text: string, caret: number, selector: readonly string[], trigger?: TemplateTrigger | null): { text: string; caret: number } {
  const ref = formatTextReference(selector);
  const from = trigger ? trigger.start : caret;
  const next = text.slice(0, from) + ref + text.slice(caret);
  return { text: next, caret: from + ref.length };
}
