import { describe, expect, it } from 'vitest';
import { builtinExecutors, runtimeExecutors } from './executors';
import { runtimePlugins } from './runtime';

describe('built-in executors', () => {
  it('every built-in kind that runs has an executor, and every executor a kind', () => {
    // Notes never run; container start nodes run as no-ops inside the engine.
    const runs = runtimePlugins.filter((p) => p.category !== 'annotation' && !runtimePlugins.some((c) => c.container?.startKind === p.kind));
    expect(runs.map((p) => p.kind).filter((k) => !runtimeExecutors.has(k))).toEqual([]);
    const kinds = new Set(runtimePlugins.map((p) => p.kind));
    expect(builtinExecutors.map((e) => e.kind).filter((k) => !kinds.has(k))).toEqual([]);
  });

  it('only end nodes give the run its outputs, and only answers stream a template', () => {
    expect(builtinExecutors.filter((e) => e.providesRunOutputs).map((e) => e.kind)).toEqual(['end']);
    expect(builtinExecutors.filter((e) => e.answerTemplate).map((e) => e.kind)).toEqual(['answer']);
    expect(runtimeExecutors.get('llm')!.streamOutput).toBe('text');
  });
});
