import { describe, expect, it } from 'vitest';
import { secondsText, startingRun, withRunEnd, withRunEvent } from './workflow-state';

const base = (seq: number) => ({ runId: 'r', seq, at: seq });
const node = (id: string, title: string) => ({ executionId: `${id}-1`, nodeId: id, kind: id, title, scope: [] });
const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };

describe('workflow run view', () => {
  it('lists the steps as they start and end, then the outputs', () => {
    let v = withRunEvent(startingRun({ text: 'x' }), { type: 'run_created', runId: 'r' });
    v = withRunEvent(v, { type: 'node_started', ...base(1), ...node('start', 'Start'), inputs: {} });
    v = withRunEvent(v, { type: 'node_finished', ...base(2), ...node('start', 'Start'), status: 'succeeded', elapsedMs: 3, inputs: {}, outputs: {}, handle: 'source', retries: 0 });
    v = withRunEvent(v, { type: 'node_started', ...base(3), ...node('llm', 'Summarise'), inputs: {} });
    expect(v.steps.map((s) => [s.title, s.status])).toEqual([
      ['Start', 'succeeded'],
      ['Summarise', 'running'],
    ]);
    v = withRunEvent(v, { type: 'node_finished', ...base(4), ...node('llm', 'Summarise'), status: 'succeeded', elapsedMs: 9, inputs: {}, outputs: {}, handle: 'source', retries: 0 });
    v = withRunEvent(v, { type: 'run_finished', ...base(5), elapsedMs: 12, outputs: { text: 'done' }, answer: '', usage, steps: 2 });
    expect(v).toMatchObject({ runId: 'r', status: 'succeeded', outputs: { text: 'done' }, elapsed_ms: 12 });
  });

  it('a failed run keeps its error; a cut stream stops the running steps', () => {
    let v = withRunEvent(startingRun({}), { type: 'node_started', ...base(1), ...node('code', 'Code'), inputs: {} });
    expect(withRunEnd(v, null, true)).toMatchObject({ status: 'stopped', steps: [{ status: 'stopped' }] });
    v = withRunEvent(v, { type: 'run_failed', ...base(2), status: 'failed', elapsedMs: 1, error: { code: 'NODE_FAILED', message: 'boom' }, outputs: {}, answer: '', usage, steps: 1 });
    expect(v).toMatchObject({ status: 'failed', error: { code: 'NODE_FAILED' } });
    expect(withRunEnd(v, null, false)).toBe(v);
  });

  it('writes a duration in seconds, a few milliseconds as under 0.01 rather than 0.00', () => {
    expect(secondsText(3)).toBe('<0.01');
    expect(secondsText(10)).toBe('0.01');
    expect(secondsText(1234)).toBe('1.23');
  });
});
