// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutorRegistry, defineNodeExecutor, defineNodePlugin, NO_NODE_SETTINGS, readNodeSettings } from './index';

const weather = defineNodePlugin({
  kind: 'acme-weather',
  version: 1,
  category: 'tool',
  icon: { lucide: 'cloud' },
  i18n: { zh: { title: '天气', description: '天气' }, en: { title: 'Weather', description: 'Weather' } },
  configSchema: z.object({ city: z.string().default('') }),
});

describe('defineNodeExecutor / createExecutorRegistry', () => {
  it('defines an executor from a plugin (typed config) or a kind, with defaults filled', async () => {
    const e = defineNodeExecutor(weather, { execute: ({ config }) => ({ outputs: { city: config.city.toUpperCase() } }) });
    expect(e).toMatchObject({ kind: 'acme-weather', streamOutput: 'text', providesRunOutputs: false });
    const byKind = defineNodeExecutor({ kind: 'end', providesRunOutputs: true, streamOutput: 'answer', execute: () => ({ outputs: {} }) });
    expect(byKind).toMatchObject({ kind: 'end', providesRunOutputs: true, streamOutput: 'answer' });
    const registry = createExecutorRegistry([e]).extend([byKind]);
    expect(registry.get('acme-weather')).toBe(e);
    expect(registry.has('end')).toBe(true);
    expect(registry.executors).toHaveLength(2);
    expect(() => createExecutorRegistry([e, e])).toThrow(/acme-weather/);
  });

  it('reads node settings leniently (absent or malformed fields mean none)', () => {
    expect(readNodeSettings({})).toBe(NO_NODE_SETTINGS);
    expect(readNodeSettings({ errorStrategy: { type: 'bogus' }, retry: 'yes', timeoutMs: -5 })).toBe(NO_NODE_SETTINGS);
    expect(readNodeSettings({ errorStrategy: { type: 'fail-branch' }, retry: { enabled: true, maxRetries: 2, intervalMs: 10, backoff: 'fixed' }, timeoutMs: 500 })).toEqual({
      errorStrategy: 'fail-branch',
      defaults: {},
      retry: { maxRetries: 2, intervalMs: 10, backoff: 'fixed' },
      timeoutMs: 500,
    });
  });
});
