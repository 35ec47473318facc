import { describe, expect, it } from 'vitest';
import en from '../i18n/locales/en/canvas';
import zh from '../i18n/locales/zh/canvas';
import { builtinCommands } from './commands';
import { CONNECT_REASONS } from './connection';
import { MOVE_REASONS } from './containers';

const lookup = (messages: unknown, key: string) =>
  key.split('.').reduce<unknown>((at, k) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[k] : undefined), messages);

describe('canvas texts', () => {
  const keys = [
    ...builtinCommands.map((c) => c.labelKey),
    ...builtinCommands.map((c) => `categories.${c.category}`),
    ...CONNECT_REASONS.map((r) => `connect.${r}`),
    ...MOVE_REASONS.map((r) => `move.${r}`),
    ...['notConnected', 'unreachable', 'entryNotConnected', 'referenceBroken'].map((k) => `checklist.${k}`),
    ...['saved', 'dirty', 'saving', 'failed', 'conflict', 'reload', 'overwrite'].map((k) => `autosave.${k}`),
    'notices.pasteSkipped',
    'notices.commandFailed',
  ];

  it.each(keys)('has zh and en text for %s', (key) => {
    expect(typeof lookup(zh, key)).toBe('string');
    expect(typeof lookup(en, key)).toBe('string');
  });
});
