/**
 * Counts read as plurals (issue 28: "1 files"): the upload limits of the kit and the portal are
 * i18next plural keys, so one reads "1 file" in English and the Chinese text keeps its measure word.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { i18n, initI18n, setLanguage } from './index';

beforeAll(async () => {
  await initI18n('en');
  await setLanguage('en');
});
afterAll(async () => {
  await setLanguage('zh');
});

const t = (key: string, o: Record<string, unknown>) => (i18n.t as (k: string, o: Record<string, unknown>) => string)(key, o);

describe('file counts', () => {
  it('say one file and two files in English', async () => {
    await setLanguage('en');
    expect(t('kit:upload.hint', { types: 'PDF', max: 5, count: 1 })).toBe('PDF; up to 5 MB each, 1 file at most');
    expect(t('kit:upload.hint', { types: 'PDF', max: 5, count: 2 })).toBe('PDF; up to 5 MB each, 2 files at most');
    expect(t('kit:upload.hintNoTypes', { max: 5, count: 1 })).toBe('Up to 5 MB each, 1 file at most');
    expect(t('kit:upload.tooMany', { count: 1 })).toBe('At most 1 file can be uploaded');
    expect(t('kit:upload.tooMany', { count: 3 })).toBe('At most 3 files can be uploaded');
    expect(t('portal:chat.tooManyFiles', { count: 1 })).toBe('At most 1 file');
    expect(t('portal:chat.attachHint', { count: 1, types: 'PDF' })).toBe('Up to 1 file: PDF');
  });

  it('keep the measure word in Chinese', async () => {
    await setLanguage('zh');
    expect(t('kit:upload.hintNoTypes', { max: 5, count: 1 })).toBe('单个文件不超过 5 MB，最多 1 个');
    expect(t('kit:upload.tooMany', { count: 1 })).toBe('最多上传 1 个文件');
  });
});
