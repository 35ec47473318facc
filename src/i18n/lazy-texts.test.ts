// unit-isolated (vite.config.ts): this file starts i18n itself, with the start-up namespaces only.
import { describe, expect, it } from 'vitest';
import { i18n, initI18n, loadTexts, setLanguage } from './index';
import { STARTUP_NAMESPACES } from './startup';

describe('texts load per namespace and language', () => {
  it('starts with the start-up namespaces only, loads more on demand, and a switch loads them in the new language', async () => {
    await initI18n('zh', { namespaces: STARTUP_NAMESPACES });
    for (const ns of STARTUP_NAMESPACES) expect(i18n.hasResourceBundle('zh', ns), ns).toBe(true);
    // A console namespace is not loaded, in either language.
    expect(i18n.hasResourceBundle('zh', 'knowledge')).toBe(false);
    expect(i18n.hasResourceBundle('en', 'common')).toBe(false);

    await loadTexts(['knowledge']);
    expect(i18n.hasResourceBundle('zh', 'knowledge')).toBe(true);
    expect(i18n.t('knowledge:list.title')).toBe('知识库');

    await setLanguage('en');
    // Every namespace loaded so far comes in English before the switch applies.
    for (const ns of [...STARTUP_NAMESPACES, 'knowledge']) expect(i18n.hasResourceBundle('en', ns), ns).toBe(true);
    expect(i18n.t('common:actions.save')).toBe('Save');

    // In English a namespace loads in English only: no Chinese copy as a fallback.
    await loadTexts(['tools']);
    expect(i18n.hasResourceBundle('en', 'tools')).toBe(true);
    expect(i18n.hasResourceBundle('zh', 'tools')).toBe(false);

    await loadTexts('all');
    expect(i18n.hasResourceBundle('en', 'inspector')).toBe(true);
    expect(i18n.hasResourceBundle('zh', 'inspector')).toBe(false);
  });
});
