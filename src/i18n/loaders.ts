/**
 * The text files as lazily loaded modules: every `locales/<lng>/<namespace>.ts` becomes a chunk of its
 * own, fetched the first time a screen needs that namespace in that language (see ./startup.ts for
 * which load when). The portal's first load then carries only the texts it shows, not the console's.
 * Nothing here imports a text file statically (./resources.ts does, for tests and type checks).
 */
import type { BackendModule } from 'i18next';

export const languages = ['zh', 'en'] as const;
export type Language = (typeof languages)[number];

/** The namespace `t` uses when a key has no `ns:` prefix. */
export const defaultNamespace = 'common';

type Messages = Record<string, unknown>;

const files = import.meta.glob<{ default: Messages }>(['./locales/*/*.ts', '!./locales/**/*.test.ts']);

const loaders = new Map<string, () => Promise<{ default: Messages }>>();
for (const [file, load] of Object.entries(files)) {
  const m = /\.\/locales\/([^/]+)\/([^/]+)\.ts$/.exec(file);
  if (m) loaders.set(`${m[1]}/${m[2]}`, load);
}

/** Every namespace found on disk (Chinese is the reference). */
export const allNamespaces: string[] = [...loaders.keys()].filter((k) => k.startsWith('zh/')).map((k) => k.slice(3));

/** One namespace's texts in one language ({} when there is no such file). */
export async function loadMessages(lng: string, ns: string): Promise<Messages> {
  const load = loaders.get(`${lng}/${ns}`);
  return load ? (await load()).default : {};
}

/** An i18next backend reading the files above (a failed chunk is not retried: the keys show). */
export const lazyTextsBackend = {
  type: 'backend',
  callbackApi: false,
  init() {},
  read: (lng: string, ns: string) => loadMessages(lng, ns),
} as unknown as BackendModule;
