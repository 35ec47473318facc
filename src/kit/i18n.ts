/**
 * Translating the i18n keys found in schema metadata (schemas/ui.ts). Keys are resolved at render
 * time, so every kit text follows a language switch.
 */
import type { i18n as I18n } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { decodeMessage, type MessageDescriptor } from './schema-form/messages';

export type Namespaces = string | readonly string[] | undefined;

/** The namespaces a bare key is looked up in, after the screen's own. */
const FALLBACK_NS = ['kit', 'common'] as const;

type TFn = (key: string, opts?: Record<string, unknown>) => string;

/**
 * Translates a metadata key:
 * 1. `'ns:key'` names its namespace;
 * 2. a bare key is looked up in `ns` (the screen's namespaces), in order;
 * 3. then its first segment as a namespace (`'credential.identifier'` → `credential:identifier`);
 * 4. then in `kit` and `common`;
 * 5. otherwise the key itself shows (a raw enum value, or a missing translation to notice).
 */
export function translateKey(i18n: I18n, key: string | undefined, ns?: Namespaces, params?: Record<string, unknown>): string {
  if (!key) return '';
  const t = i18n.t.bind(i18n) as unknown as TFn;
  const exists = i18n.exists.bind(i18n) as unknown as (k: string, o?: { ns: string }) => boolean;
  if (/^[\w-]+:/.test(key)) return exists(key) ? t(key, params) : key;
  const list = ns === undefined ? [] : typeof ns === 'string' ? [ns] : [...ns];
  for (const n of list) if (exists(key, { ns: n })) return t(key, { ...params, ns: n });
  const dot = key.indexOf('.');
  if (dot > 0) {
    const n = key.slice(0, dot);
    const rest = key.slice(dot + 1);
    if (exists(rest, { ns: n })) return t(rest, { ...params, ns: n });
  }
  for (const n of FALLBACK_NS) if (exists(key, { ns: n })) return t(key, { ...params, ns: n });
  return key;
}

/** Whether a key resolves to a text by {@link translateKey}'s rules. */
export function hasKey(i18n: I18n, key: string, ns?: Namespaces): boolean {
  return translateKey(i18n, key, ns) !== key || i18n.exists(key);
}

/**
 * The text of a message descriptor (or of an encoded one, as stored in a form error): its key when
 * that translates, else its text, else the key.
 */
export function translateMessage(i18n: I18n, message: MessageDescriptor | string | undefined | null, ns?: Namespaces): string {
  const d = typeof message === 'string' ? decodeMessage(message) : message;
  if (!d) return '';
  if (d.key) {
    const out = translateKey(i18n, d.key, ns, d.params);
    if (out !== d.key) return out;
  }
  return d.text ?? d.key ?? '';
}

/**
 * `tk(key, params?)` for metadata keys, `tm(message)` for validation messages (both re-render on a
 * language change) and `t` of the kit namespace.
 * @example const { tk, tm, t } = useKitT('resources'); tk(field.label); tm(fieldState.error?.message)
 */
export function useKitT(ns?: Namespaces) {
  const { t, i18n } = useTranslation('kit');
  const key = ns === undefined ? '' : typeof ns === 'string' ? ns : ns.join(',');
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const tk = useCallback((k: string | undefined, params?: Record<string, unknown>) => translateKey(i18n, k, ns, params), [i18n, key, i18n.language]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const tm = useCallback((m: MessageDescriptor | string | undefined | null) => translateMessage(i18n, m, ns), [i18n, key, i18n.language]);
  return { t, tk, tm, i18n, language: i18n.language };
}
