/**
 * An in-memory {@link KnowledgeApi} for stories and tests. It keeps the rules the screens rely on
 * (unique base names, paging and keyword filters, units moving waiting → queued → segmenting →
 * indexing → completed on each list call, graph analysis only after vectorising, stop and cancel)
 * and cuts text with the form's separators and lengths for the preview.
 */
import type { AdminDatasetTask, Dataset, DatasetDocument, HitHistoryDetail, QaGeneration, QaPair, Segment, TaskLog } from '../../../api/datasets-contract';
import { ApiError } from '../../../api/request';
import type { KnowledgeApi, ListQuery } from './knowledge-api';
import { separatorsOf, type SegmentationForm } from './segmentation';
import { createMemoryIndexApi } from './memory-index-api';
import type { SegmentIndex } from '../../../../schemas/knowledge-tasks';

export interface MemoryKnowledgeOptions {
  datasets?: number;
  /** Units of the first base, in these states. */
  units?: Partial<DatasetDocument>[];
  latencyMs?: number;
  listFails?: boolean;
  /** Every list call moves processing units one step (default true). */
  advance?: boolean;
  /** No chat model is configured (the AI features are off). */
  noModel?: boolean;
}

export interface MemoryKnowledgeApi extends KnowledgeApi {
  workspaceId: string;
  datasets: Dataset[];
  documents: DatasetDocument[];
  segments: Segment[];
  /** The segments' index entries. */
  indexes: SegmentIndex[];
  qa: QaPair[];
  calls: { method: string; args: unknown[] }[];
}

const WS = '0c000000-0000-4000-8000-0000000000d1';
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bad = (msg = 'Parameter error') => new ApiError({ status: 400, code: 'VALIDATION-1000', msg });
const missingDs = (id: string) => new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'Knowledge base does not exist or you have no permission', data: { id, resource: 'knowledge_base' } });
const at = (n: number) => new Date(Date.parse('2025-05-01T08:00:00Z') + n * 3_600_000).toISOString();

const SAMPLE = `Weft keeps knowledge in bases. Each base holds units.\n\nA unit is cut into segments! Segments are vectorised for retrieval.\n\nHit tests show what a question retrieves? They list scores and sources.`;

/** Cuts text like the server: at the separators, packed up to max_length with the overlap. */
export function cutText(text: string, f: SegmentationForm): string[] {
  const seps = separatorsOf(f).sort((a, b) => b.length - a.length);
  let pieces = [text];
  for (const sep of seps) pieces = pieces.flatMap((p) => p.split(sep).map((x, i, all) => (i < all.length - 1 ? x + sep : x)));
  const out: string[] = [];
  let cur = '';
  for (const p of pieces.map((x) => x.trim()).filter(Boolean)) {
    if (cur && cur.length + p.length + 1 > f.max_length) {
      out.push(cur);
      cur = f.overlap > 0 ? cur.slice(-f.overlap) + ' ' : '';
    }
    cur = cur ? `${cur} ${p}` : p;
    while (cur.length > f.max_length) {
      out.push(cur.slice(0, f.max_length));
      cur = cur.slice(f.max_length - f.overlap);
    }
  }
  if (cur) out.push(cur);
  return out;
}

const NEXT: Record<string, string> = { waiting: 'queued', queued: 'segmenting', segmenting: 'indexing', indexing: 'completed', cancelling: 'cancelled' };

export function createMemoryKnowledgeApi(opts: MemoryKnowledgeOptions = {}): MemoryKnowledgeApi {
  let n = 0;
  const id = () => `0f000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`;
  const calls: MemoryKnowledgeApi['calls'] = [];
  const step = async (method: string, args: unknown[]) => {
    calls.push({ method, args });
    await wait(opts.latencyMs ?? 0);
  };
  const page = <T>(rows: T[], q: ListQuery) => ({ items: rows.slice((q.page - 1) * q.page_size, q.page * q.page_size), total: rows.length });
  const has = (text: string, q?: string) => !q || text.toLowerCase().includes(q.toLowerCase());

  const datasets: Dataset[] = Array.from({ length: opts.datasets ?? 3 }, (_, i) => ({
    id: id(),
    workspace_id: WS,
    name: ['Product manuals', 'Support FAQ', 'HR policies'][i] ?? `Knowledge ${i + 1}`,
    description: i === 0 ? 'Manuals of every product line' : '',
    document_count: 0,
    size: 0,
    created_by: WS,
    created_by_name: 'admin',
    graph_min_relevance: 0.3,
    created_at: at(i),
    updated_at: at(i),
  }));
  const doc = (d: Partial<DatasetDocument>, datasetId: string): DatasetDocument => ({
    id: id(),
    dataset_id: datasetId,
    name: 'guide.pdf',
    file_type: 'pdf',
    size: 48_000,
    source_url: null,
    update_frequency: 'none',
    upload_status: 'success',
    status: 'completed',
    progress: 100,
    queue_position: null,
    task_id: id(),
    error: null,
    segment_mode: 'general',
    segment_count: 3,
    qa_count: 0,
    hit_count: 0,
    enabled: true,
    graph_status: 'disabled',
    graph_error: null,
    created_at: at(n),
    updated_at: at(n),
    ...d,
    ...(d.status && d.status !== 'completed' && d.segment_count === undefined ? { segment_count: 0 } : {}),
  });
  const documents: DatasetDocument[] = datasets.length ? (opts.units ?? [{}]).map((u) => doc(u, datasets[0]!.id)) : [];
  const segments: Segment[] = [];
  const indexes: SegmentIndex[] = [];
  const qa: QaPair[] = [];
  const history: HitHistoryDetail[] = [];
  const tasks = (): AdminDatasetTask[] =>
    documents.map((d) => ({
      id: d.task_id ?? d.id,
      task_type: 'normal',
      status: d.status,
      progress: d.progress,
      queue_position: d.queue_position,
      tenant_name: 'Headquarters',
      workspace_name: 'Demo space',
      dataset_name: datasets.find((x) => x.id === d.dataset_id)?.name ?? '',
      document_name: d.name,
      created_at: d.created_at,
    }));
  // A missing base is told as the server does: VALIDATION-1000 naming the resource.
  const findDs = (dsId: string) => datasets.find((d) => d.id === dsId) ?? (() => { throw missingDs(dsId); })();
  const findDoc = (docId: string) => documents.find((d) => d.id === docId) ?? (() => { throw bad(); })();
  // Q&A generation per unit: queued → running → completed (two pairs from its first segments), one step per read.
  const generations = new Map<string, QaGeneration>();
  const advanceGeneration = (docId: string) => {
    const g = generations.get(docId);
    if (!g) return null;
    if (g.status === 'queued') Object.assign(g, { status: 'running', progress: 50, queue_position: null });
    else if (g.status === 'running') {
      Object.assign(g, { status: 'completed', progress: 100, finished_at: at(n) });
      for (const s of segments.filter((x) => x.document_id === docId).slice(0, 2)) {
        qa.push({ id: id(), document_id: docId, question: `What does segment ${s.position} say?`, answer: s.content, created_at: at(n) });
      }
    }
    return { ...g };
  };
  const seed = (d: DatasetDocument, texts: string[]) => {
    texts.forEach((content, i) => segments.push({ id: id(), document_id: d.id, position: i + 1, content, enabled: true, hit_count: 0, created_at: at(n) }));
    d.segment_count = texts.length;
  };
  for (const d of documents) if (d.status === 'completed') seed(d, cutText(SAMPLE, { mode: 'general', max_length: 80, overlap: 0, parent_max_length: 2000, separators: ['\n\n'], custom: [], remove_extra_spaces: true, remove_urls_emails: false }));
  const advance = () => {
    if (opts.advance === false) return;
    for (const d of documents) {
      const next = NEXT[d.status];
      if (d.status === 'segmenting' || d.status === 'indexing') d.progress = Math.min(100, (d.progress ?? 0) + 50);
      if (next && (d.status === 'waiting' || d.status === 'queued' || d.status === 'cancelling' || (d.progress ?? 0) >= 100)) {
        d.status = next;
        d.queue_position = next === 'queued' ? 1 : null;
        if (next === 'segmenting' || next === 'indexing') d.progress = 0;
        if (next === 'completed') {
          d.progress = 100;
          if (!segments.some((s) => s.document_id === d.id)) seed(d, cutText(SAMPLE, { mode: 'general', max_length: 80, overlap: 0, parent_max_length: 2000, separators: ['\n\n'], custom: [], remove_extra_spaces: true, remove_urls_emails: false }));
        }
      }
      if (d.graph_status === 'analysing') d.graph_status = 'enabled';
    }
  };

  const api: MemoryKnowledgeApi = {
    workspaceId: WS,
    datasets,
    documents,
    segments,
    indexes,
    qa,
    calls,
    ...createMemoryIndexApi({ segments, entries: indexes, step, id, now: () => at(n), noModel: opts.noModel }),
    async listDatasets(_ws, q) {
      await step('listDatasets', [q]);
      if (opts.listFails) throw new ApiError({ status: 500, code: 'SYSTEM-1000', msg: 'Server error' });
      for (const d of datasets) {
        const mine = documents.filter((x) => x.dataset_id === d.id);
        d.document_count = mine.length;
        d.size = mine.reduce((sum, x) => sum + x.size, 0);
      }
      return page(datasets.filter((d) => has(d.name, q.keyword)), q);
    },
    async getDataset(_ws, dsId) {
      await step('getDataset', [dsId]);
      return findDs(dsId);
    },
    async checkName(_ws, name, excludeId) {
      await step('checkName', [name, excludeId]);
      return datasets.some((d) => d.name === name && d.id !== excludeId);
    },
    async createDataset(_ws, body) {
      await step('createDataset', [body]);
      if (datasets.some((d) => d.name === body.name)) throw new ApiError({ status: 400, code: 'VALIDATION-1001', msg: 'Name already exists' });
      const d: Dataset = { ...datasets[0]!, ...body, id: id(), document_count: 0, size: 0, created_at: at(n), updated_at: at(n) };
      datasets.unshift(d);
      return d;
    },
    async updateDataset(_ws, dsId, body) {
      await step('updateDataset', [dsId, body]);
      return Object.assign(findDs(dsId), body);
    },
    async deleteDataset(_ws, dsId) {
      await step('deleteDataset', [dsId]);
      datasets.splice(datasets.indexOf(findDs(dsId)), 1);
      return null;
    },
    async listDocuments(_ws, dsId, q) {
      await step('listDocuments', [dsId, q]);
      if (opts.listFails) throw new ApiError({ status: 500, code: 'SYSTEM-1000', msg: 'Server error' });
      advance();
      return page(documents.filter((d) => d.dataset_id === dsId && has(d.name, q.keyword)), q);
    },
    async getDocument(_ws, _dsId, docId) {
      await step('getDocument', [docId]);
      return findDoc(docId);
    },
    async deleteDocument(_ws, _dsId, docId) {
      await step('deleteDocument', [docId]);
      documents.splice(documents.indexOf(findDoc(docId)), 1);
      return null;
    },
    async toggleEnable(_ws, _dsId, docId, enabled) {
      await step('toggleEnable', [docId, enabled]);
      findDoc(docId).enabled = enabled;
      return null;
    },
    async toggleGraph(_ws, _dsId, docId, enabled) {
      await step('toggleGraph', [docId, enabled]);
      const d = findDoc(docId);
      if (d.status !== 'completed') throw bad('Vector analysis must succeed first');
      d.graph_status = enabled ? 'analysing' : 'disabled';
      return null;
    },
    async refreshNow(_ws, _dsId, docId) {
      await step('refreshNow', [docId]);
      const d = findDoc(docId);
      if (!d.source_url) throw bad('Only a unit made from a URL can be refreshed');
      Object.assign(d, { status: 'queued', progress: 0 });
      return d;
    },
    async stopTask(_ws, _dsId, d) {
      await step('stopTask', [d.id]);
      findDoc(d.id).status = 'cancelling';
      return null;
    },
    async cancelQueue(_ws, _dsId, d) {
      await step('cancelQueue', [d.id]);
      Object.assign(findDoc(d.id), { status: 'cancelled', queue_position: null });
      return null;
    },
    async taskLogs(_ws, _dsId, d) {
      await step('taskLogs', [d.id]);
      const doc = findDoc(d.id);
      const lines: TaskLog[] = [{ time: doc.created_at, level: 'info', message: `Task created for ${doc.name}` }];
      if (doc.error) lines.push({ time: doc.updated_at, level: 'error', message: doc.error });
      return lines;
    },
    async uploadFile(file, o) {
      calls.push({ method: 'uploadFile', args: [file.name] });
      for (const p of [0.25, 0.5, 0.75]) {
        await wait(opts.latencyMs ?? 0);
        if (o.signal.aborted) throw new DOMException('aborted', 'AbortError');
        o.onProgress(p);
      }
      o.onProgress(1);
      return { id: id(), name: file.name, size: file.size, mime_type: file.type || 'application/octet-stream' };
    },
    async excelSheets(_ws, _dsId, fileId) {
      await step('excelSheets', [fileId]);
      return ['Sheet1', 'Prices'];
    },
    async excelHeaders(_ws, _dsId, fileId, sheet, row) {
      await step('excelHeaders', [fileId, sheet, row]);
      return row === 1 ? ['Product', 'Price', 'Stock'] : row === 2 ? ['Widget', '12.5', '40'] : [];
    },
    async previewSegments(_ws, _dsId, p) {
      await step('previewSegments', [p]);
      const all = cutText(SAMPLE, p.settings);
      return { segments: all.slice(0, 20).map((content) => ({ content })), total: all.length };
    },
    async createDocuments(_ws, dsId, p) {
      await step('createDocuments', [dsId, p]);
      for (const src of p.sources) {
        const ext = src.url ? 'html' : (src.name.split('.').pop() ?? 'txt');
        documents.push(doc({ name: src.name, file_type: ext, source_url: src.url ?? null, status: 'waiting', progress: 0, segment_count: 0, segment_mode: p.settings.mode }, dsId));
      }
      return null;
    },
    async listSegments(_ws, _dsId, docId, q) {
      await step('listSegments', [docId, q]);
      return page(segments.filter((s) => s.document_id === docId && has(s.content, q.keyword)), q);
    },
    async createSegment(_ws, _dsId, docId, body) {
      await step('createSegment', [docId, body]);
      const s: Segment = { id: id(), document_id: docId, position: segments.filter((x) => x.document_id === docId).length + 1, content: body.content, enabled: true, hit_count: 0, created_at: at(n) };
      segments.push(s);
      return s;
    },
    async updateSegment(_ws, _dsId, _docId, segId, body) {
      await step('updateSegment', [segId, body]);
      const s = segments.find((x) => x.id === segId);
      if (!s) throw bad();
      return Object.assign(s, Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)));
    },
    async listQa(_ws, _dsId, docId, q) {
      await step('listQa', [docId, q]);
      return page(qa.filter((x) => x.document_id === docId && has(x.question, q.keyword)), q);
    },
    async createQa(_ws, _dsId, docId, body) {
      await step('createQa', [docId, body]);
      const x: QaPair = { id: id(), document_id: docId, ...body, created_at: at(n) };
      qa.push(x);
      return x;
    },
    async updateQa(_ws, _dsId, _docId, qaId, body) {
      await step('updateQa', [qaId, body]);
      const x = qa.find((y) => y.id === qaId);
      if (!x) throw bad();
      return Object.assign(x, body);
    },
    async hasChatModel() {
      await step('hasChatModel', []);
      return !opts.noModel;
    },
    async qaGeneration(_ws, _dsId, docId) {
      await step('qaGeneration', [docId]);
      findDoc(docId);
      return advanceGeneration(docId);
    },
    async startQaGeneration(_ws, _dsId, docId) {
      await step('startQaGeneration', [docId]);
      const d = findDoc(docId);
      if (d.status !== 'completed') throw bad('Q&A generation needs the unit’s vector analysis to succeed first');
      const g = generations.get(docId);
      if (g && (g.status === 'queued' || g.status === 'running')) return { ...g };
      const next: QaGeneration = { task_id: id(), status: 'queued', progress: 0, queue_position: 1, error: null, created_at: at(n), finished_at: null };
      generations.set(docId, next);
      return { ...next };
    },
    async deleteQa(_ws, _dsId, _docId, qaId) {
      await step('deleteQa', [qaId]);
      qa.splice(qa.findIndex((y) => y.id === qaId), 1);
      return null;
    },
    async hitTest(_ws, dsId, body) {
      await step('hitTest', [dsId, body]);
      const words = body.query.toLowerCase().split(/\W+/).filter(Boolean);
      const results = segments
        .map((s) => ({ s, score: words.filter((w) => s.content.toLowerCase().includes(w)).length / Math.max(1, words.length) }))
        .filter((r) => r.score >= (body.score_threshold ?? 0) && r.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, body.top_k)
        .map(({ s, score }) => ({ segment_id: s.id, document_id: s.document_id, document_name: findDoc(s.document_id).name, position: s.position, content: s.content, score, source: 'vector' as const }));
      history.unshift({ id: id(), query: body.query, mode: body.mode, top_k: body.top_k, score_threshold: body.score_threshold ?? 0, rerank: body.rerank, graph: body.graph, result_count: results.length, created_at: at(n), results });
      return { query: body.query, results };
    },
    async listHitHistory(_ws, dsId, q) {
      await step('listHitHistory', [dsId, q]);
      return page(history, q);
    },
    async getHitHistory(_ws, _dsId, hId) {
      await step('getHitHistory', [hId]);
      const h = history.find((x) => x.id === hId);
      if (!h) throw bad();
      return h;
    },
    async deleteHitHistory(_ws, _dsId, hId) {
      await step('deleteHitHistory', [hId]);
      history.splice(history.findIndex((x) => x.id === hId), 1);
      return null;
    },
    async graphQuery(_ws, dsId, query) {
      await step('graphQuery', [dsId, query]);
      return { relations: [{ source: 'Weft', relation: 'keeps', target: 'knowledge bases', score: 0.42 }] };
    },
    async graphReferences(_ws, _dsId, docId) {
      await step('graphReferences', [docId]);
      return [
        { source: 'knowledge base', relation: 'holds', target: 'unit', count: 1 },
        { source: 'unit', relation: 'is cut into', target: 'segment', count: 3 },
      ];
    },
    async graphQueuePosition(_ws, _dsId, docId) {
      await step('graphQueuePosition', [docId]);
      const queued = documents.filter((d) => d.graph_status === 'queued');
      const i = queued.findIndex((d) => d.id === docId);
      return i < 0 ? null : i + 1;
    },
    async listAdminTasks(q) {
      await step('listAdminTasks', [q]);
      advance();
      return page(tasks().filter((x) => !q.status || x.status === q.status), q);
    },
    async stopAdminTask(taskId) {
      await step('stopAdminTask', [taskId]);
      const d = documents.find((x) => x.task_id === taskId);
      if (!d) throw bad();
      d.status = 'cancelling';
      return null;
    },
    async cancelAdminQueue(taskId) {
      await step('cancelAdminQueue', [taskId]);
      const d = documents.find((x) => x.task_id === taskId);
      if (!d) throw bad();
      Object.assign(d, { status: 'cancelled', queue_position: null });
      return null;
    },
  };
  return api;
}
