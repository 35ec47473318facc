/**
 * The seeded tenant and project space are stored in English (seed.ts) and shown in the user's language
 * (seeded.ts). That every screen showing such a field goes through the helpers is checked with the
 * other visible strings (visible-strings.test.ts: one parse of the screens for both).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { i18n, initI18n } from './index';
import { seededName, seededPath } from './seeded';

beforeAll(async () => {
  await initI18n('zh');
});
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

describe('seeded names', () => {
  it('shows a seeded name, or the seeded root of an org path, in the current language; anything else as stored', async () => {
    expect(seededName('Default project space')).toBe('默认项目空间');
    expect(seededPath('Default tenant/R&D/Web')).toBe('默认租户/R&D/Web');
    expect(seededPath('Default tenant')).toBe('默认租户');
    expect(seededPath('Acme/Default tenant')).toBe('Acme/Default tenant');
    await i18n.changeLanguage('en');
    expect(seededPath('Default tenant/R&D')).toBe('Default tenant/R&D');
    expect(seededName('My space')).toBe('My space');
  });
});
