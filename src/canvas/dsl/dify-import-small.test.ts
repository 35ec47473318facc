import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { createNodeRegistry } from '../../plugin-sdk';
import en from '../../i18n/locales/en/dsl';
import zh from '../../i18n/locales/zh/dsl';
import { builtinPlugins } from '../builtin-plugins';
import { importFlowFile } from './index';
import seoSlug from './fixtures/dify-real/seo-slug.yml?raw';
import jsonTranslate from './fixtures/dify-real/json-translate.yml?raw';

/** Issue 26's smaller import bullets. */
const registry = createNodeRegistry(builtinPlugins);

describe('import errors and warnings', () => {
  it('says on which line the YAML is broken', () => {
    expect(importFlowFile('a: 1\nb: [1, 2\nc: 3\n', registry)).toMatchObject({ ok: false, errors: [{ key: 'errors.yamlInvalid', params: { line: 3 } }] });
    const r = importFlowFile(seoSlug.replace('  mode: workflow', '  mode: workflow\n   bad: [indent'), registry);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0].params?.line).toBeGreaterThan(5);
  });

  it('refuses a file whose flow exceeds the 5 MB flow limit (it could never be saved)', () => {
    // The LLM's prompt (kept whole by the import) made 5.5 MB long.
    const big = seoSlug.replace('          text: This GPT', `          text: ${'x'.repeat(5.5 * 1024 * 1024)} This GPT`);
    expect(big.length).toBeGreaterThan(5.5 * 1024 * 1024);
    expect(importFlowFile(big, registry)).toMatchObject({ ok: false, errors: [{ key: 'errors.flowTooLarge', params: { max: 5 } }] });
  });

  it('warns plainly when the file was cut off mid-way', () => {
    const lines = jsonTranslate.split('\n');
    const cut = lines.slice(0, Math.floor(lines.length * 0.6)).join('\n');
    const r = importFlowFile(cut, registry);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.warnings.map((w) => w.key)).toContain('warnings.fileCut');
    const whole = importFlowFile(jsonTranslate, registry);
    if (whole.ok) expect(whole.warnings.map((w) => w.key)).not.toContain('warnings.fileCut');
  });

  it.each(['chat', 'agent-chat', 'completion'])('gives Dify %s exports the unsupported-mode message', (mode) => {
    const text = `app:\n  name: Old app\n  mode: ${mode}\nkind: app\nmodel_config:\n  pre_prompt: hi\nversion: 0.1.5\n`;
    expect(importFlowFile(text, registry)).toEqual({ ok: false, errors: [{ key: 'errors.modeUnsupported', params: { mode } }] });
  });

  it('says "1 node" and "2 nodes" in English', async () => {
    const t = i18next.createInstance();
    await t.init({ lng: 'en', resources: { en: { dsl: en }, zh: { dsl: zh } }, interpolation: { escapeValue: false } });
    expect(t.t('dsl:summary.unmappedTitle', { count: 1 })).toBe('This node could not be mapped and was removed with its connections:');
    expect(t.t('dsl:summary.unmappedTitle', { count: 2 })).toBe('These 2 nodes could not be mapped and were removed with their connections:');
    expect(t.t('dsl:summary.imported', { count: 1 })).toBe('1 node imported');
  });
});
