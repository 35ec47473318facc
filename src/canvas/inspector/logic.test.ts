import { describe, expect, it } from 'vitest';
import { describeObject } from '../../kit/schema/fields';
import { registry } from '../widgets/test-flow.fixture';
import { issuesByField, RUN_SETTINGS_GROUP, splitRunSettings } from './logic';

describe('issuesByField', () => {
  it('puts an issue at the field its path starts with, the rest on top', () => {
    const at = (path?: (string | number)[]) => ({ nodeId: 'n', ns: 'x', key: 'k', severity: 'error' as const, path });
    const { byField, general } = issuesByField([at(['cases', 0, 'conditions']), at(['cases']), at(['gone']), at()], ['cases', 'other']);
    expect(byField.get('cases')).toHaveLength(2);
    expect(general.map((i) => i.path)).toEqual([['gone'], undefined]);
  });
});

describe('splitRunSettings', () => {
  it('sends the shared errors-and-retries fields to their own tab', () => {
    const { settings, run } = splitRunSettings(describeObject(registry.get('http-request')!.configSchema));
    expect(run).toEqual(expect.arrayContaining(['errorStrategy', 'retryEnabled', 'timeoutSeconds', 'connectTimeoutSeconds']));
    expect(settings).toEqual(expect.arrayContaining(['method', 'url', 'headers']));
    expect(settings).not.toContain('errorStrategy');
    expect(RUN_SETTINGS_GROUP).toBe('run.group');
  });

  it('leaves a kind without run settings in one tab', () => {
    expect(splitRunSettings(describeObject(registry.get('if-else')!.configSchema)).run).toEqual([]);
  });
});
