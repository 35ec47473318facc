import { bool, list, oneOf, rec, str, type DifyImportHook } from '../../src/plugin-sdk/dify';

/** The plain text of a Lexical editor state (Dify's notes). */
function lexicalText(v: unknown): string {
  const s = str(v);
  let root: unknown;
  try {
    root = JSON.parse(s);
  } catch {
    return s;
  }
  const walk = (n: unknown): string => {
    const o = rec(n);
    if (typeof o.text === 'string') return o.text;
    const parts = list(o.children).map(walk);
    return o.type === 'root' ? parts.join('\n') : parts.join(o.type === 'list' ? '\n' : '');
  };
  return walk(rec(root).root).slice(0, 10_000);
}

const fromDify = (data: Record<string, unknown>) => ({
  text: lexicalText(data.text),
  theme: oneOf(data.theme, ['yellow', 'blue', 'green', 'pink', 'violet', 'cyan'] as const, 'yellow'),
  showAuthor: bool(data.showAuthor),
  author: str(data.author).slice(0, 100),
});

/** Dify's notes (`custom-note`): the text of their Lexical document, theme, author. */
export const dify: DifyImportHook = { types: ['note'], import: fromDify };
