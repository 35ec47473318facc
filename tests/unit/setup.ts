import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// findBy… and waitFor give a loaded machine (two test workers on two cores) 5 s instead of 1 s.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no matchMedia; Monaco (the code editor, loaded lazily by components under test) asks it
// for the colour scheme and would fail in the middle of a later file, the module graph being shared.
window.matchMedia ??= (query: string) =>
  ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false }) as MediaQueryList;

// Files share one document (isolate: false in vite.config.ts): whatever a test rendered goes after it,
// also in files that do not call cleanup themselves.
afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});

// jsdom's user agent ("AppleWebKit", no "Chrome") makes Monaco take it for a WebKit web view, so
// its clipboard service answers every click and keydown with `clipboard.write([new ClipboardItem
// ({'text/plain': pending})])` and cancels the previous pending promise. jsdom has no
// ClipboardItem (a ReferenceError on every key once user-event has put a clipboard on navigator),
// and nothing awaits the cancelled promise (an unhandled "Canceled"). Which file meets it depends
// on the order files run in, the module graph being shared. A ClipboardItem that holds its values
// and marks their promises as handled is what a browser's does.
class TestClipboardItem {
  readonly types: string[];
  constructor(private readonly items: Record<string, unknown>) {
    this.types = Object.keys(items);
    for (const value of Object.values(items)) {
      if (value instanceof Promise) value.catch(() => undefined);
    }
  }
  async getType(type: string): Promise<Blob> {
    const value = await this.items[type];
    return value instanceof Blob ? value : new Blob([String(value)], { type });
  }
}
(globalThis as { ClipboardItem?: unknown }).ClipboardItem ??= TestClipboardItem;

// Monaco in jsdom: no canvas, no Worker, no real clipboard. Whether its chunk finished loading while a
// test still ran depended on the machine's load, and when it did, its renderer threw on the missing
// canvas context in the middle of whichever file ran next (the module graph being shared). Component
// tests see the editor as it is before Monaco arrives (the code in a preview); Monaco itself is tested
// in Chromium (stories and the browser tests).
vi.mock('../../src/kit/widgets/monaco-loader', () => new Promise(() => {}));
