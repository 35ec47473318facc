/**
 * Clean text from an HTML page (URL knowledge sources): drops scripts, styles, navigation, headers of
 * site chrome, footers and asides; keeps headings, paragraphs, list items and table rows as lines;
 * decodes entities. Prefers the page's <main> or <article> when it has one. Regex-based on purpose:
 * pages are only read, never rendered, and a tolerant scan copes with broken markup.
 */

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', copy: '©', reg: '®', trade: '™', hellip: '…',
  mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', middot: '·',
  bull: '•', times: '×', divide: '÷', deg: '°', plusmn: '±', yen: '¥', euro: '€', pound: '£', cent: '¢', sect: '§',
  para: '¶', ensp: ' ', emsp: ' ', thinsp: ' ', zwj: '', zwnj: '', shy: '',
};

/** Decodes named (common ones) and numeric character references. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);?/gi, (m, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    const v = NAMED[ref.toLowerCase()];
    return v ?? m;
  });
}

const DROP = ['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'nav', 'footer', 'aside', 'form', 'button', 'select'];

function dropElements(html: string, tags: string[]): string {
  let out = html;
  for (const t of tags) out = out.replace(new RegExp(`<${t}\\b[\\s\\S]*?</${t}\\s*>`, 'gi'), ' ');
  return out;
}

function innerOf(html: string, tag: string): string | null {
  const m = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*)</${tag}\\s*>`, 'i').exec(html);
  return m && m[1]!.replace(/<[^>]+>/g, '').trim().length > 0 ? m[1]! : null;
}

/** Text and title of an HTML document. `url` names the page in the title when it has none. */
export function htmlToText(html: string, url?: string): { title: string; text: string } {
  let h = html.replace(/<!--[\s\S]*?-->/g, ' ').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, ' ');
  const titleMatch = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(h);
  h = dropElements(h, ['head', ...DROP]);
  // Site headers hold menus; a header inside <main>/<article> is kept with them below.
  const body = innerOf(h, 'main') ?? innerOf(h, 'article') ?? dropElements(h, ['header']);
  let t = body
    .replace(/<(h[1-6])\b[^>]*>([\s\S]*?)<\/\1\s*>/gi, '\n\n$2\n\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(td|th)\s*>/gi, '\t')
    .replace(/<\/?(p|div|section|article|main|header|blockquote|pre|ul|ol|table|tr|dl|dt|dd|figure|figcaption|hr)\b[^>]*>/gi, '\n\n')
    .replace(/<[^>]*>/g, '');
  t = decodeEntities(t)
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const h1 = /<h1\b[^>]*>([\s\S]*?)<\/h1\s*>/i.exec(html)?.[1];
  const clean = (s: string | undefined) => (s ? decodeEntities(s.replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim() : '');
  const title = clean(titleMatch?.[1]) || clean(h1) || url || '';
  return { title, text: t };
}
