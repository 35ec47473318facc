import { describe, expect, it } from 'vitest';
import { anyInProgress, graphView, unitView } from './unit-status';

describe('unit status (spec 4)', () => {
  it('reads the upload states', () => {
    expect(unitView({ upload_status: 'uploading', status: 'waiting', progress: 40 })).toMatchObject({ labelKey: 'status.uploading', percent: 40, inProgress: true });
    expect(unitView({ upload_status: 'failed', status: 'waiting' })).toMatchObject({ labelKey: 'status.uploadFailed', tone: 'danger', inProgress: false });
  });

  it('reads waiting and queued (with position) as cancellable from the queue', () => {
    expect(unitView({ status: 'waiting' })).toMatchObject({ labelKey: 'status.waiting', canCancelQueue: true, canStop: false, inProgress: true });
    expect(unitView({ status: 'queued', queue_position: 3 })).toMatchObject({ labelKey: 'status.queuedAt', labelParams: { position: 3 }, canCancelQueue: true });
    expect(unitView({ status: 'queued' }).labelKey).toBe('status.queued');
  });

  it('reads segmenting and indexing with their progress, stoppable', () => {
    expect(unitView({ status: 'segmenting', progress: 12.4 })).toMatchObject({ labelKey: 'status.segmenting', labelParams: { pct: 12 }, percent: 12.4, canStop: true });
    expect(unitView({ status: 'indexing', progress: 140 }).percent).toBe(100);
  });

  it('reads the end states: completed is ready, failed and cancelled are not', () => {
    expect(unitView({ status: 'completed' })).toMatchObject({ ready: true, inProgress: false, tone: 'success' });
    expect(unitView({ status: 'failed' })).toMatchObject({ ready: false, tone: 'danger' });
    expect(unitView({ status: 'cancelled' })).toMatchObject({ ready: false, inProgress: false });
    expect(unitView({ status: 'cancelling' })).toMatchObject({ inProgress: true, canStop: false });
  });

  it('allows graph analysis only after vector analysis succeeded, and not while analysing', () => {
    expect(graphView({ status: 'segmenting', graph_status: 'disabled' }).canAnalyse).toBe(false);
    expect(graphView({ status: 'completed', graph_status: 'disabled' }).canAnalyse).toBe(true);
    expect(graphView({ status: 'completed', graph_status: 'failed' })).toMatchObject({ canAnalyse: true, tone: 'danger' });
    expect(graphView({ status: 'completed', graph_status: 'analysing' })).toMatchObject({ canAnalyse: false, inProgress: true });
    expect(graphView({ status: 'completed', graph_status: 'unparseable' }).canAnalyse).toBe(false);
    // The server's own names for "never analysed" and "no text to analyse".
    expect(graphView({ status: 'completed', graph_status: 'none' })).toMatchObject({ labelKey: 'graph.disabled', canAnalyse: true });
    expect(graphView({ status: 'completed', graph_status: 'not_parseable' })).toMatchObject({ labelKey: 'graph.unparseable', canAnalyse: false, tone: 'warning' });
  });

  it('keeps polling while any unit or graph moves', () => {
    expect(anyInProgress([{ status: 'completed' }, { status: 'failed' }])).toBe(false);
    expect(anyInProgress([{ status: 'completed' }, { status: 'queued' }])).toBe(true);
    expect(anyInProgress([{ status: 'completed', graph_status: 'analysing' }])).toBe(true);
  });
});
