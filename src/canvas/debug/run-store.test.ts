import { describe, expect, it } from 'vitest';
import { createRunStore } from './run-store';
import { chatRunEvents, eventScript, iterationRunEvents } from './events.fixture';

describe('createRunStore', () => {
  it('keeps each node’s latest status and time, and the trace beside it', () => {
    const runs = createRunStore();
    const seen: (string | undefined)[] = [];
    runs.api.subscribe((s) => seen.push(s.nodes.llm?.status));
    for (const e of chatRunEvents()) runs.apply(e);
    expect(runs.getState().nodes).toEqual({
      start: { status: 'succeeded', elapsedMs: 1 },
      llm: { status: 'succeeded', elapsedMs: 840 },
      answer: { status: 'succeeded', elapsedMs: 2 },
    });
    expect(runs.getState().trace.answer).toBe('Hello, world');
    expect(seen).toContain('running');
  });

  it('leaves the nodes record untouched by events that change no node status (chunks)', () => {
    const runs = createRunStore();
    const e = eventScript();
    runs.apply(e.started('llm', 'llm'));
    const before = runs.getState().nodes;
    runs.apply(e.chunk('llm', 'llm', 'to'));
    runs.apply(e.answer('to'));
    expect(runs.getState().nodes).toBe(before);
  });

  it('a node inside an iteration shows its last round; a skip does not hide a node that ran', () => {
    const runs = createRunStore();
    for (const ev of iterationRunEvents()) runs.apply(ev);
    expect(runs.getState().nodes.code).toEqual({ status: 'succeeded', elapsedMs: 17 });
    expect(runs.getState().nodes.http).toEqual({ status: 'skipped' });
    const e = eventScript();
    runs.apply(e.skipped('code', 'code', e.inRound('iteration', 2)));
    expect(runs.getState().nodes.code.status).toBe('succeeded');
  });

  it('markEnded stops what still runs; reset clears everything', () => {
    const runs = createRunStore();
    const e = eventScript();
    runs.apply(e.created());
    runs.apply(e.started('llm', 'llm'));
    runs.markEnded('stopped');
    expect(runs.getState().nodes.llm.status).toBe('stopped');
    expect(runs.getState().trace.status).toBe('stopped');
    expect(runs.getState().trace.items.llm.status).toBe('stopped');
    runs.reset();
    expect(runs.getState().nodes).toEqual({});
    expect(runs.getState().trace.roots).toEqual([]);
  });
});
