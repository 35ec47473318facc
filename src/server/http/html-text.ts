/**
 * HTML to clean text for models: scripts, styles, navigation, asides, footers and forms out;
 * headings (as `#` lines), paragraphs and list items (`- ` / `1. `) kept. When the page marks its
 * content with `<main>` or `<article>`, only that is kept. A small tokenizer rather than a DOM: it
 * never executes anything and copes with broken markup by carrying on.
 */

const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', copy: '©', reg: '®', trade: '™', hellip: '…',
  mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', middot: '·', bull: '•', times: '×',
};

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** Elements whose content is raw text up to their end tag. */
const RAW = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noscript', 'template', 'iframe', 'noembed', 'noframes']);
/** Elements left out with everything inside. */
const SKIP = new Set(['nav', 'aside', 'footer', 'form', 'svg', 'math', 'button', 'select', 'head', 'dialog', 'menu']);
const VOID = new Set(['br', 'hr', 'img', 'input', 'meta', 'link', 'area', 'base', 'col', 'embed', 'source', 'track', 'wbr']);
const BLOCK = new Set([
  'p', 'div', 'section', 'article', 'main', 'header', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'table', 'thead', 'tbody', 'tr',
  'blockquote', 'pre', 'figure', 'figcaption', 'address', 'details', 'summary', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'br', 'hr', 'body', 'html',
]);
const CONTENT_ROOTS = new Set(['main', 'article']);

interface Block {
  text: string;
  inContent: boolean;
  kind: 'heading' | 'item' | 'text';
}

const TOKEN = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<![^>]*>|<\?[^>]*>|<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;

export function htmlToText(html: string): { title: string; text: string } {
  const blocks: Block[] = [];
  let title = '';
  let line = '';
  let prefix = '';
  let kind: Block['kind'] = 'text';
  let skipDepth = 0;
  let contentDepth = 0;
  const lists: { ordered: boolean; n: number }[] = [];

  const flush = () => {
    const text = decodeEntities(line).replace(/\s+/g, ' ').trim();
    if (text) blocks.push({ text: prefix + text, inContent: contentDepth > 0, kind });
    line = '';
    prefix = '';
    kind = 'text';
  };

  let at = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(html); m; m = TOKEN.exec(html)) {
    if (!skipDepth) line += html.slice(at, m.index);
    at = TOKEN.lastIndex;
    const name = m[2]?.toLowerCase();
    if (!name) continue; // comment, doctype, CDATA
    const closing = m[1] === '/';
    const attrs = m[3] ?? '';
    const selfClosing = /\/\s*$/.test(attrs);

    if (!closing && RAW.has(name)) {
      const end = html.toLowerCase().indexOf(`</${name}`, at);
      const inner = html.slice(at, end < 0 ? html.length : end);
      if (name === 'title' && !title) title = decodeEntities(inner).replace(/\s+/g, ' ').trim();
      at = end < 0 ? html.length : html.indexOf('>', end) + 1 || html.length;
      TOKEN.lastIndex = at;
      continue;
    }
    const hidden = /\b(hidden|aria-hidden\s*=\s*["']?true)/i.test(attrs) || /\brole\s*=\s*["']?(navigation|banner|contentinfo|complementary)/i.test(attrs);
    if (SKIP.has(name) || (hidden && !VOID.has(name))) {
      if (selfClosing) continue;
      if (closing) {
        if (skipDepth) skipDepth--;
      } else {
        if (!skipDepth) flush();
        skipDepth++;
      }
      continue;
    }
    if (skipDepth) {
      // Inside a skipped element, only nesting of skipped kinds matters for finding its end.
      continue;
    }
    if (!BLOCK.has(name)) {
      if (name === 'td' || name === 'th') line += ' ';
      continue;
    }
    flush();
    if (CONTENT_ROOTS.has(name)) contentDepth = Math.max(0, contentDepth + (closing ? -1 : 1));
    if (closing) {
      if (name === 'ul' || name === 'ol') lists.pop();
      continue;
    }
    if (name === 'ul' || name === 'ol') lists.push({ ordered: name === 'ol', n: 0 });
    else if (name === 'li') {
      const list = lists[lists.length - 1];
      const depth = Math.max(0, lists.length - 1);
      prefix = '  '.repeat(depth) + (list?.ordered ? `${++list.n}. ` : '- ');
      kind = 'item';
    } else if (/^h[1-6]$/.test(name)) {
      prefix = `${'#'.repeat(Number(name[1]))} `;
      kind = 'heading';
    }
  }
  if (!skipDepth) line += html.slice(at);
  flush();

  const content = blocks.some((b) => b.inContent) ? blocks.filter((b) => b.inContent) : blocks;
  let text = '';
  content.forEach((b, i) => {
    // List items stay together; everything else is a paragraph of its own.
    if (i > 0) text += b.kind === 'item' && content[i - 1].kind === 'item' ? '\n' : '\n\n';
    text += b.text;
  });
  return { title, text };
}
