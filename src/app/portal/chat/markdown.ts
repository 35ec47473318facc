/**
 * Model output as HTML: markdown-it with HTML off (a tag in the text is shown as text, never
 * rendered), code highlighted by highlight.js core with a few common languages registered (the
 * others come out escaped, unhighlighted), links opening in a new tab without the opener, and
 * images shown as links: an image URL in an answer would otherwise be fetched as soon as it shows,
 * which lets a prompt injection send the conversation to any server.
 */
import MarkdownIt from 'markdown-it';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = { bash, css, go, java, javascript, json, python, sql, typescript, xml, yaml };
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);
hljs.registerAliases(['sh', 'shell', 'zsh'], { languageName: 'bash' });
hljs.registerAliases(['js', 'jsx', 'mjs'], { languageName: 'javascript' });
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });

const md = new MarkdownIt({
  html: false,
  linkify: true,
  breaks: true,
  highlight(code, lang) {
    const name = lang.trim().toLowerCase();
    // Only registered names and aliases (plain words) get here, so the class needs no escaping.
    if (!/^[\w+-]+$/.test(name) || !hljs.getLanguage(name)) return '';
    try {
      // The library escapes the code inside its spans; markdown-it wraps it in <pre><code>.
      return `<pre><code class="hljs language-${name}">${hljs.highlight(code, { language: name, ignoreIllegals: true }).value}</code></pre>`;
    } catch {
      return '';
    }
  },
});

const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet('target', '_blank');
  tokens[idx].attrSet('rel', 'noopener noreferrer');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

// An image becomes a link to it, labelled with its alt text.
md.renderer.rules.image = (tokens, idx) => {
  const token = tokens[idx];
  const src = String(token.attrGet('src') ?? '');
  const alt = String(token.children?.map((c) => c.content).join('') || token.content || src);
  return `<a href="${md.utils.escapeHtml(src)}" target="_blank" rel="noopener noreferrer" data-image-link="">${md.utils.escapeHtml(alt)}</a>`;
};

/** The HTML of a markdown text (safe to put in the page: the text's own HTML is escaped). */
export function renderMarkdown(text: string): string {
  return md.render(text);
}
