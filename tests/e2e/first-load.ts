/**
 * What a page's first load costs on the wire (issue 28): a new browser context (empty cache) opens a
 * page of the real server and everything the page fetches until the network is quiet is counted, the
 * calls it makes after its first paint included (a schema module or zod loaded by the first list
 * call counts: the build's own figure, scripts/vite-client-build.mjs, cannot see those).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

/** The login page and the console home each at most this much JS and CSS on the wire. */
export const FIRST_LOAD_BUDGET_KB = 250;

const dist = path.resolve(import.meta.dirname, '..', '..', 'dist');

export interface LoadedFile {
  /** Path on the server, e.g. /assets/index-Ab12.js. */
  file: string;
  /** Bytes Chromium received for it, headers included (CDP Network.loadingFinished encodedDataLength). */
  transferred: number;
  /** The response's Content-Encoding. */
  encoding: string;
  /** The size of the build's brotli copy (dist/<file>.br; the file's own size when it has none). */
  brotli: number;
}

export interface FirstLoad {
  files: LoadedFile[];
  /** JS and CSS only, in bytes. */
  transferred: number;
  brotli: number;
}

/**
 * Opens `url` in a fresh context and answers the JS and CSS it loaded once `ready` resolved and the
 * network was quiet. `storageState` signs the context in (the console home) without a visit to /login.
 */
export async function measureFirstLoad(
  browser: Browser,
  url: string,
  ready: (page: Page) => Promise<unknown>,
  options: BrowserContextOptions = {},
): Promise<FirstLoad> {
  const context = await browser.newContext(options);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const responses = new Map<string, { file: string; encoding: string }>();
    const files: LoadedFile[] = [];
    cdp.on('Network.responseReceived', (e) => {
      const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
      responses.set(e.requestId, { file: new URL(e.response.url).pathname, encoding: headers['content-encoding'] ?? '' });
    });
    cdp.on('Network.loadingFinished', (e) => {
      const r = responses.get(e.requestId);
      if (!r || !/\.(js|css)$/.test(r.file)) return;
      const local = path.join(dist, r.file);
      const brotli = fs.existsSync(`${local}.br`) ? fs.statSync(`${local}.br`).size : fs.statSync(local).size;
      files.push({ ...r, transferred: e.encodedDataLength, brotli });
    });
    await page.goto(url);
    await ready(page);
    // The calls of the first paint (and the modules they load) come after it: wait for them.
    await page.waitForLoadState('networkidle');
    const sum = (k: 'transferred' | 'brotli') => files.reduce((n, f) => n + f[k], 0);
    return { files, transferred: sum('transferred'), brotli: sum('brotli') };
  } finally {
    await context.close();
  }
}

/** A few lines for the test's output: the totals and the largest files. */
export function describeFirstLoad(name: string, load: FirstLoad): string {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const largest = [...load.files].sort((a, b) => b.transferred - a.transferred).slice(0, 8);
  return [
    `${name}: ${kb(load.transferred)} transferred (brotli files ${kb(load.brotli)}) in ${load.files.length} JS and CSS files; budget ${FIRST_LOAD_BUDGET_KB} KB`,
    ...largest.map((f) => `  ${kb(f.transferred).padStart(9)}  ${f.file}`),
  ].join('\n');
}
