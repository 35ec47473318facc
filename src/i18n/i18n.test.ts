// unit-isolated (vite.config.ts): the language test needs i18n not started yet by another file.
import { describe, expect, it, vi } from 'vitest';
import { errorCodeValues } from '../../schemas/errors';
import { currentLanguage, detectLanguage, i18n, initI18n, LANG_STORAGE_KEY, setLanguage, toLanguage } from './index';
import { namespaces, resources } from './resources';

function leaves(obj: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') for (const [kk, vv] of leaves(v, key)) out.set(kk, vv);
    else out.set(key, v);
  }
  return out;
}

describe('resources', () => {
  it('finds the namespaces on disk, the same in both languages', () => {
    expect(namespaces).toEqual(expect.arrayContaining(['common', 'errors']));
    expect(Object.keys(resources.en).sort()).toEqual(Object.keys(resources.zh).sort());
  });

  it('has the same keys in zh and en for every namespace, all non-empty strings', () => {
    for (const ns of namespaces) {
      const zh = leaves(resources.zh[ns]);
      const en = leaves(resources.en[ns]);
      expect([...en.keys()].sort(), ns).toEqual([...zh.keys()].sort());
      for (const [key, value] of [...zh, ...en]) {
        expect(typeof value === 'string' && value.length > 0, `${ns}:${key}`).toBe(true);
      }
    }
  });

  it('has a message for every backend code', () => {
    for (const code of errorCodeValues) {
      expect(resources.zh.errors.codes, code).toHaveProperty([code]);
      expect(resources.en.errors.codes, code).toHaveProperty([code]);
    }
  });
});

describe('language', () => {
  it('starts from the saved choice, switches, saves and updates <html lang>', async () => {
    localStorage.setItem(LANG_STORAGE_KEY, 'en');
    await initI18n();
    expect(currentLanguage()).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.t('common:actions.save')).toBe('Save');
    expect(i18n.t('errors:status.403')).toBe('Permission denied');

    await setLanguage('zh');
    expect(localStorage.getItem(LANG_STORAGE_KEY)).toBe('zh');
    expect(currentLanguage()).toBe('zh');
    expect(document.documentElement.lang).toBe('zh-CN');
    // The default namespace needs no prefix.
    expect(i18n.t('actions.save')).toBe('保存');
  });

  it('starts in the saved choice, else the first browser language Weft has, else Chinese', () => {
    const spy = vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR', 'en-GB', 'zh-CN']);
    try {
      localStorage.setItem(LANG_STORAGE_KEY, 'zh');
      expect(detectLanguage()).toBe('zh');
      localStorage.removeItem(LANG_STORAGE_KEY);
      expect(detectLanguage()).toBe('en');
      spy.mockReturnValue(['fr-FR', 'de']);
      vi.spyOn(navigator, 'language', 'get').mockReturnValue('de');
      expect(detectLanguage()).toBe('zh');
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('maps browser tags to zh or en, Chinese as fallback', () => {
    expect(toLanguage('en-US')).toBe('en');
    expect(toLanguage('zh-TW')).toBe('zh');
    expect(toLanguage('fr')).toBe('zh');
    expect(toLanguage(undefined)).toBe('zh');
  });
});
