import { describe, expect, it } from 'vitest';
import { createExecutorRegistry } from '../src/plugin-sdk';
import { builtins } from '../tests/plugins/helpers';
import { BUILTIN_KINDS } from './builtins';

describe('built-in executors', () => {
  const plugins = builtins.plugins;
  const executors = createExecutorRegistry(builtins.executors);

  it('every built-in kind that runs has an executor, and every executor a kind', () => {
    expect(plugins.map((p) => p.kind)).toEqual([...BUILTIN_KINDS]);
    // Notes never run; container start nodes run as no-ops inside the engine.
    const runs = plugins.filter((p) => p.category !== 'annotation' && !plugins.some((c) => c.container?.startKind === p.kind));
    expect(runs.map((p) => p.kind).filter((k) => !executors.has(k))).toEqual([]);
    const kinds = new Set(plugins.map((p) => p.kind));
    expect(builtins.executors.map((e) => e.kind).filter((k) => !kinds.has(k))).toEqual([]);
  });

  it('only end nodes give the run its outputs, and only answers stream a template', () => {
    expect(builtins.executors.filter((e) => e.providesRunOutputs).map((e) => e.kind)).toEqual(['end']);
    expect(builtins.executors.filter((e) => e.answerTemplate).map((e) => e.kind)).toEqual(['answer']);
    expect(executors.get('llm')!.streamOutput).toBe('text');
  });
});
