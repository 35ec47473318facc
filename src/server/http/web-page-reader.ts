import { NodeExecutionError } from '../../plugin-sdk/executor';
import type { GuardedHttpClient } from './guarded-client';
import { htmlToText } from './html-text';

export const WEB_PAGE_ERRORS = {
  FETCH_FAILED: 'WEBPAGE-FETCH-FAILED',
  UNSUPPORTED: 'WEBPAGE-UNSUPPORTED-CONTENT',
} as const;

export interface WebPage {
  /** The URL that answered (after redirects). */
  url: string;
  title: string;
  /** Clean text: headings as `#` lines, paragraphs, list items. */
  text: string;
  /** Whether the text was cut at `maxChars`. */
  truncated: boolean;
}

export interface WebPageReader {
  read(url: string, opts?: { signal?: AbortSignal; maxChars?: number }): Promise<WebPage>;
}

/**
 * Reads a web page as text through the guarded client (so private addresses stay blocked and
 * sizes bounded). HTML is cleaned; plain text, markdown and JSON come back as they are.
 * @example
 * const page = await createWebPageReader(http).read('https://example.com/post', { signal });
 * page.title; page.text;
 */
export function createWebPageReader(client: GuardedHttpClient, defaults: { maxChars?: number; timeoutMs?: number } = {}): WebPageReader {
  return {
    async read(url, opts = {}) {
      const res = await client.request({
        method: 'GET',
        url,
        headers: { accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5' },
        timeoutMs: defaults.timeoutMs ?? 30_000,
        signal: opts.signal,
      });
      if (res.status >= 400) throw new NodeExecutionError(WEB_PAGE_ERRORS.FETCH_FAILED, `The page answered with status ${res.status}`, { status: res.status, url: res.url });
      const type = res.contentType.toLowerCase();
      let page: { title: string; text: string };
      if (type.includes('html') || (!type && /^\s*</.test(res.body))) page = htmlToText(res.body);
      else if (!type || type.startsWith('text/') || type.includes('json') || type.includes('xml')) page = { title: '', text: res.body.trim() };
      else throw new NodeExecutionError(WEB_PAGE_ERRORS.UNSUPPORTED, `The page is ${type.split(';')[0]}, not text`, { contentType: type, url: res.url });
      const max = opts.maxChars ?? defaults.maxChars ?? 50_000;
      const truncated = page.text.length > max;
      return { url: res.url, title: page.title, text: truncated ? page.text.slice(0, max) : page.text, truncated };
    },
  };
}
