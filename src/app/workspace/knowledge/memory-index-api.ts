/**
 * The segment calls of the in-memory {@link KnowledgeApi} (memory-knowledge-api.ts): segment delete
 * and index entries, with the server's rules the screens rely on (entries kept by id, added without,
 * removed when left out; regenerate replaces the generated entries of its types and keeps hand-written
 * ones; a unit's generation goes queued → running → completed, one step per status read).
 */
import type { Segment } from '../../../api/datasets-contract';
import { ApiError } from '../../../api/request';
import type { SegmentIndex, SegmentIndexStatus, SegmentIndexType } from '../../../../schemas/knowledge-tasks';
import type { KnowledgeApi } from './knowledge-api';

type IndexCalls = Pick<KnowledgeApi, 'deleteSegment' | 'segmentIndexes' | 'setSegmentIndexes' | 'regenerateSegmentIndexes' | 'generateUnitIndexes' | 'unitIndexStatus'>;
interface Parts {
  segments: Segment[];
  entries: SegmentIndex[];
  step: (method: string, args: unknown[]) => Promise<void>;
  id: () => string;
  now: () => string;
  noModel?: boolean;
}

const bad = () => new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'Parameter error' });
const noModel = () => new ApiError({ status: 400, code: 'KNOWLEDGE-1002', msg: 'This needs a default chat model (LLM) in this tenant; set one in model management' });
/** What the fake model writes per type. */
const WRITES: Record<SegmentIndexType, (text: string) => string> = {
  question: (text) => `What does "${text.slice(0, 24)}" mean?`,
  summary: (text) => `About: ${text.slice(0, 40)}`,
  keyword: (text) => text.split(/\W+/).filter((w) => w.length > 4).slice(0, 3).join(', ') || 'keyword',
};

export function createMemoryIndexApi({ segments, entries, step, id, now, noModel: none }: Parts): IndexCalls {
  const seg = (segId: string) => segments.find((x) => x.id === segId) ?? (() => { throw bad(); })();
  const of = (segId: string) => entries.filter((e) => e.segment_id === segId);
  const drop = (pred: (e: SegmentIndex) => boolean) => {
    for (let i = entries.length - 1; i >= 0; i--) if (pred(entries[i]!)) entries.splice(i, 1);
  };
  const generate = (s: Segment, types: SegmentIndexType[]) => {
    drop((e) => e.segment_id === s.id && e.source === 'generated' && types.includes(e.type));
    for (const type of types) entries.push({ id: id(), segment_id: s.id, document_id: s.document_id, type, source: 'generated', content: WRITES[type](s.content), created_at: now(), updated_at: now() });
  };
  const runs = new Map<string, SegmentIndexStatus>();
  const typesOf = new Map<string, SegmentIndexType[]>();
  const statusOf = (docId: string): SegmentIndexStatus => {
    const mine = segments.filter((s) => s.document_id === docId);
    const base = { segment_count: mine.length, indexed_segment_count: mine.filter((s) => of(s.id).length > 0).length, index_count: entries.filter((e) => e.document_id === docId).length };
    const run = runs.get(docId);
    return run ? { ...run, ...base } : { task_id: null, status: 'none', progress: null, queue_position: null, error: null, finished_at: null, ...base };
  };

  return {
    async deleteSegment(_ws, _dsId, _docId, segId) {
      await step('deleteSegment', [segId]);
      const s = seg(segId);
      segments.splice(segments.indexOf(s), 1);
      drop((e) => e.segment_id === segId);
      return null;
    },
    async segmentIndexes(_ws, _dsId, _docId, segId) {
      await step('segmentIndexes', [segId]);
      seg(segId);
      return of(segId).map((e) => ({ ...e }));
    },
    async setSegmentIndexes(_ws, _dsId, _docId, segId, list) {
      await step('setSegmentIndexes', [segId, list]);
      const s = seg(segId);
      const before = of(segId);
      if (list.some((x) => x.id && !before.some((e) => e.id === x.id))) throw bad();
      const next = list.map((x): SegmentIndex => {
        const old = before.find((e) => e.id === x.id);
        if (old && old.content === x.content && old.type === x.type) return old;
        return { id: old?.id ?? id(), segment_id: segId, document_id: s.document_id, type: x.type, source: 'manual', content: x.content, created_at: old?.created_at ?? now(), updated_at: now() };
      });
      drop((e) => e.segment_id === segId);
      entries.push(...next);
      return next.map((e) => ({ ...e }));
    },
    async regenerateSegmentIndexes(_ws, _dsId, _docId, segId, types) {
      await step('regenerateSegmentIndexes', [segId, types]);
      if (none) throw noModel();
      generate(seg(segId), types);
      return of(segId).map((e) => ({ ...e }));
    },
    async generateUnitIndexes(_ws, _dsId, docId, types) {
      await step('generateUnitIndexes', [docId, types]);
      if (none) throw noModel();
      runs.set(docId, { ...statusOf(docId), task_id: id(), status: 'queued', queue_position: 1, progress: null, finished_at: null });
      typesOf.set(docId, types);
      return statusOf(docId);
    },
    async unitIndexStatus(_ws, _dsId, docId) {
      await step('unitIndexStatus', [docId]);
      const run = runs.get(docId);
      if (run?.status === 'queued') Object.assign(run, { status: 'running', progress: 50, queue_position: null });
      else if (run?.status === 'running') {
        for (const s of segments.filter((x) => x.document_id === docId)) generate(s, typesOf.get(docId) ?? ['question', 'summary', 'keyword']);
        Object.assign(run, { status: 'completed', progress: 100, finished_at: now() });
      }
      return statusOf(docId);
    },
  };
}
