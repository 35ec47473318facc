import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { allNamespaces, defaultNamespace, languages, lazyTextsBackend, type Language } from './loaders';

export { i18n, languages, allNamespaces as namespaces, type Language };

/** localStorage key holding the language the user chose (spec 1: saved in browser storage). */
export const LANG_STORAGE_KEY = 'weft.lang';

/** Maps a browser language tag to a supported language; unknown tags are returned unchanged. */
function normalise(tag: string): string {
  const lower = tag.toLowerCase();
  if (lower === 'zh' || lower.startsWith('zh-')) return 'zh';
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  return tag;
}

/** The supported language for any tag; Chinese is the fallback. */
export function toLanguage(tag: string | null | undefined): Language {
  return tag && normalise(tag) === 'en' ? 'en' : 'zh';
}

/**
 * The language to start in: the saved choice (localStorage `weft.lang`), else the first of the browser's
 * languages that Weft has, else Chinese. (i18next-browser-languagedetector did this in 6 KB of the entry
 * chunk every page loads first; the portal's first load has a 200 KB budget.)
 */
export function detectLanguage(): Language {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(LANG_STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private mode): the browser's languages decide.
  }
  const browser = typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language];
  for (const tag of [saved, ...browser]) {
    const lng = tag ? normalise(tag) : null;
    if (lng && (languages as readonly string[]).includes(lng)) return lng as Language;
  }
  return 'zh';
}

/** The value for `<html lang>`. */
const htmlLang = (lng: Language) => (lng === 'zh' ? 'zh-CN' : 'en');

function syncHtmlLang(lng: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = htmlLang(toLanguage(lng));
}

let initPromise: Promise<typeof i18n> | null = null;

export interface InitI18nOptions {
  /**
   * The namespaces to load before the promise resolves (default: all of them, as tests and stories
   * want). The app starts with the start-up ones (./startup.ts); {@link loadTexts} adds more.
   */
  namespaces?: readonly string[];
}

/**
 * Initialises i18next once (later calls return the same promise). The language comes from `lng` when
 * given (tests, stories), else from localStorage `weft.lang`, else from the browser; Chinese otherwise.
 * Auto-detected languages are not written back: only {@link setLanguage} saves a choice. Texts load
 * per namespace and language from their own chunks (./loaders.ts); a language switch loads the
 * namespaces loaded so far in the new language before it applies.
 */
export function initI18n(lng?: Language, options: InitI18nOptions = {}): Promise<typeof i18n> {
  if (initPromise) {
    return lng && i18n.resolvedLanguage !== lng ? initPromise.then(async () => (await i18n.changeLanguage(lng), i18n)) : initPromise;
  }
  i18n.on('languageChanged', syncHtmlLang);
  initPromise = i18n
    .use(lazyTextsBackend)
    .use(initReactI18next)
    .init({
      lng: lng ?? detectLanguage(),
      ns: [...(options.namespaces ?? allNamespaces)],
      defaultNS: defaultNamespace,
      fallbackNS: defaultNamespace,
      supportedLngs: [...languages],
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      // Chinese is the fallback of any other language, but English needs none: its files have every key
      // of the Chinese ones (typed `satisfies typeof zh`; i18n.test.ts), and a fallback is loaded with each
      // namespace, so an English page would also fetch every text it shows in Chinese.
      fallbackLng: { en: [], default: ['zh'] },
      interpolation: { escapeValue: false },
      returnNull: false,
    })
    .then(() => {
      syncHtmlLang(i18n.resolvedLanguage ?? 'zh');
      return i18n;
    });
  return initPromise;
}

/**
 * Loads namespaces (in the current language and the fallback) before a screen that uses them shows:
 * route loaders call it (the console loads every namespace, the portal its own). Cheap when loaded.
 * @example { path: 'operation', loader: async (args) => (await loadTexts('all'), loginGuard(args)) }
 */
export async function loadTexts(namespaces: readonly string[] | 'all'): Promise<void> {
  await initI18n();
  const list = namespaces === 'all' ? allNamespaces : namespaces;
  if (list.every((ns) => i18n.hasLoadedNamespace(ns))) return;
  await i18n.loadNamespaces([...list]);
}

/** The language in use. */
export function currentLanguage(): Language {
  return toLanguage(i18n.resolvedLanguage ?? i18n.language);
}

/** Switches the language, saves the choice in localStorage `weft.lang` and updates `<html lang>`. */
export async function setLanguage(lng: Language): Promise<void> {
  try {
    localStorage.setItem(LANG_STORAGE_KEY, lng);
  } catch {
    // Storage can be unavailable (private mode, quota): the switch still applies to this page.
  }
  await i18n.changeLanguage(lng);
}

/**
 * `t` for keys built at run time (status codes, backend codes, error types). Static keys should use the
 * typed `t` of `useTranslation()` or `i18n.t` instead.
 */
export function tDynamic(key: string, options?: Record<string, unknown>): string {
  return (i18n.t as (k: string, o?: Record<string, unknown>) => string)(key, options);
}

/** Whether a dynamic key has a text in the current language or the fallback. */
export function hasText(key: string): boolean {
  return i18n.exists(key);
}

/**
 * The text of a backend or run error code (errors:codes), undefined when it has none. `data` is the
 * answer's `data`: a text may show its fields as `{{data.field}}` (AUTH-1006: `{{data.retry_after}}`).
 * Nested under `data` so that no field can be taken for an i18next option (`lng`, `count`…).
 */
export function codeText(code: string, data?: unknown): string | undefined {
  if (!hasText(`errors:codes.${code}`)) return undefined;
  return tDynamic(`errors:codes.${code}`, typeof data === 'object' && data !== null ? { data } : undefined);
}
