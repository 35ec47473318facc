/**
 * An in-memory StoreApi with one released item of each store type (stories and jsdom tests). It
 * filters, sorts and pages like the server, answers an app's copy dry run with one matched and one
 * unmatched reference, and counts copies. Pure data; no React.
 */
import { createEmptyFlow } from '../../../schemas/flow';
import type { SpaceStoreType, StoreItemType, StoreCopyAnswer, StoreItem, StoreItemDetail, StoreSnapshot } from '../../../schemas/store';
import type { Workspace } from '../../../schemas/workspace';
import type { StoreApi } from './store-api';

const id = (n: number) => `0e000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const AT = '2026-11-20T09:30:00.000Z';

export const DEMO_STORE_IDS = { app: id(1), dataset: id(2), prompt: id(3), tool: id(4), document: id(21), kbOrigin: id(31) };

function item(type: SpaceStoreType, n: number, over: Partial<StoreItem>): StoreItem {
  return {
    id: id(n),
    type,
    name: '',
    description: '',
    icon: null,
    tags: [],
    kind: null,
    review_state: 'released',
    review_reason: null,
    copy_count: 0,
    source_workspace_name: 'Customer service',
    source_id: id(100 + n),
    published_by_name: 'Li Lei',
    published_at: AT,
    reviewed_at: AT,
    version: null,
    stats: { documents: 0, segments: 0, functions: 0, variables: 0 },
    ...over,
  };
}

const row = (param_key: string, data_type: 'string' | 'integer', description: string, is_not_null = false) => ({ param_key, data_type, description, is_not_null });

const SNAPSHOTS: Record<SpaceStoreType, StoreSnapshot> = {
  app: {
    type: 'app',
    mode: 'workflow',
    version: { id: id(41), version: 'v1.2.0', description: 'Answers in the customer’s language', created_at: AT },
    document: createEmptyFlow('workflow') as unknown as Record<string, unknown>,
    references: [
      { kind: 'dataset', source_id: id(51), name: 'Return policy', store_item_id: DEMO_STORE_IDS.kbOrigin, functions: [], node_ids: ['kr'] },
      { kind: 'tool', source_id: id(52), name: 'Order lookup', store_item_id: null, functions: [{ id: id(53), name: 'get_order' }], node_ids: ['tool'] },
    ],
  },
  dataset: {
    type: 'dataset',
    embedding: { provider: 'builtin', model: 'bge-small-zh' },
    embedding_dim: 512,
    documents: [
      { id: DEMO_STORE_IDS.document, name: 'Return policy.pdf', file_type: 'pdf', char_count: 12840, segment_count: 3, segment_mode: 'general' },
      { id: id(22), name: 'Shipping FAQ.md', file_type: 'md', char_count: 4210, segment_count: 0, segment_mode: 'general' },
    ],
  },
  prompt: {
    type: 'prompt',
    content: 'Summarise {text} in at most {words} words, in the language of the text.',
    template_type: 'f-string',
    scene: 'llm_chain',
    variables: [
      { name: 'text', description: 'The text to summarise', default: '' },
      { name: 'words', description: 'The length', default: '50' },
    ],
    model: { provider: 'openai', name: 'gpt-4o-mini' },
  },
  tool: {
    type: 'tool',
    tool_type: 'custom',
    tool_version: 3,
    auth: { type: 'api_key', location: 'header', key: 'X-Api-Key' },
    functions: [
      {
        name: 'get_weather',
        description: 'The weather of a city today',
        method: 'GET',
        url: 'https://api.example.com/weather',
        auth: { type: 'api_key', location: 'header', key: 'X-Api-Key' },
        params: [row('city', 'string', 'City name', true), row('days', 'integer', 'Days ahead')],
        headers: [],
        body: [],
        body_subtype: 'form-data',
        response: [row('temperature', 'integer', 'Degrees Celsius')],
        enabled: true,
      },
    ],
    mcp_config: null,
    mcp_enabled: [],
  },
};

export function demoStoreItems(): StoreItemDetail[] {
  const base: StoreItem[] = [
    item('app', 1, { name: 'Order helper', description: 'Answers questions about orders, returns and shipping.', kind: 'workflow', tags: ['support', 'orders'], copy_count: 12, version: 'v1.2.0' }),
    item('dataset', 2, { name: 'Return policy', description: 'The return and refund rules of every shop.', tags: ['support'], copy_count: 4, stats: { documents: 2, segments: 3, functions: 0, variables: 0 } }),
    item('prompt', 3, { name: 'Summariser', description: 'Short summaries of any text.', kind: 'llm_chain', tags: ['writing'], copy_count: 31, stats: { documents: 0, segments: 0, functions: 0, variables: 2 } }),
    item('tool', 4, { name: 'Weather', description: 'Today’s weather of a city.', kind: 'custom', tags: ['weather', 'public data'], copy_count: 0, stats: { documents: 0, segments: 0, functions: 1, variables: 0 } }),
  ];
  return base.map((b) => ({ ...b, snapshot: SNAPSHOTS[b.type as SpaceStoreType] }));
}

/** `count` more released apps, for the virtualised gallery. */
export function manyApps(count: number): StoreItemDetail[] {
  const [app] = demoStoreItems();
  return Array.from({ length: count }, (_, i) => ({
    ...app,
    id: id(1000 + i),
    name: `Assistant ${i + 1}`,
    kind: ['agent', 'chatflow', 'workflow'][i % 3],
    tags: [['sales'], ['support'], ['hr', 'office']][i % 3],
    copy_count: (i * 7) % 23,
    published_at: new Date(Date.parse(AT) - i * 3_600_000).toISOString(),
  }));
}

const SPACES: Workspace[] = [
  { id: id(61), name: 'Marketing', description: '', icon: '', role_type: 'owner', member_count: 3, created_at: AT, updated_at: AT },
  { id: id(62), name: 'Support team', description: '', icon: '', role_type: 'ordinary_member', member_count: 8, created_at: AT, updated_at: AT },
];

export interface MemoryStoreOptions {
  items?: StoreItemDetail[];
  spaces?: Workspace[];
  latencyMs?: number;
  /** Every list call fails (the gallery's error state). */
  failList?: boolean;
}

export type MemoryStoreApi = StoreApi & { items: StoreItemDetail[] };

export function createMemoryStoreApi(opts: MemoryStoreOptions = {}): MemoryStoreApi {
  const items = opts.items ?? demoStoreItems();
  const spaces = opts.spaces ?? SPACES;
  const wait = <T>(v: T) => new Promise<T>((r) => setTimeout(() => r(v), opts.latencyMs ?? 0));
  const find = (type: StoreItemType, itemId: string) => {
    const hit = items.find((x) => x.id === itemId && x.type === type && x.review_state === 'released');
    if (!hit) throw Object.assign(new Error('Store item not found'), { code: 'VALIDATION-1000' });
    return hit;
  };
  return {
    items,
    async list(type, q) {
      if (opts.failList) throw new Error('The store is not reachable');
      const kw = q.keyword?.toLowerCase();
      let hits = items.filter((x) => x.type === type && x.review_state === 'released');
      const tags = [...new Set(hits.flatMap((x) => x.tags))].sort();
      if (kw) hits = hits.filter((x) => [x.name, x.description, ...x.tags].some((s) => s.toLowerCase().includes(kw)));
      if (q.tag) hits = hits.filter((x) => x.tags.includes(q.tag!));
      if (q.kind) hits = hits.filter((x) => x.kind === q.kind);
      hits = [...hits].sort((a, b) => (q.sort === 'most_copied' ? b.copy_count - a.copy_count : 0) || b.published_at.localeCompare(a.published_at));
      const page = Number(q.page ?? 1);
      const size = Number(q.page_size ?? 24);
      return wait({ items: hits.slice((page - 1) * size, page * size), total: hits.length, page, page_size: size, tags });
    },
    // A copy: the page keeps its own count (as with the server's answers).
    get: async (type, itemId) => wait({ ...find(type, itemId) }),
    async segments(_itemId, documentId, q) {
      const all = documentId === DEMO_STORE_IDS.document ? ['Items can be returned within 30 days of delivery.', 'Refunds go back to the original payment method within 5 working days.', 'Opened software cannot be returned.'] : [];
      const rows = all.map((content, i) => ({ id: id(200 + i), kind: 'chunk', position: i, content, parent_id: null }));
      return wait({ items: rows.slice((q.page - 1) * q.page_size, q.page * q.page_size), total: rows.length, page: q.page, page_size: q.page_size });
    },
    spaces: async () => wait(spaces),
    credentials: async (workspaceId) => wait(workspaceId === spaces[0]?.id ? [{ id: id(81), name: 'weather key' }] : []),
    async authorize(_ws, toolId, credentialId) {
      if (toolId !== id(900) || credentialId !== id(81)) throw new Error('Not found');
      await wait(null);
    },
    async copy(type, body) {
      const src = find(type, body.id);
      const references =
        src.snapshot.type === 'app'
          ? src.snapshot.references.map((r) => ({
              ...r,
              target_id: r.kind === 'dataset' ? id(71) : null,
              target_name: r.kind === 'dataset' ? r.name : null,
              matched_by: r.kind === 'dataset' ? ('store_origin' as const) : null,
              options: r.kind === 'dataset' ? [{ id: id(71), name: r.name }] : [{ id: id(72), name: 'Order API' }],
            }))
          : [];
      const mapped = references.map((r) => ({ ...r, target_id: `${r.kind}:${r.source_id}` in (body.mapping ?? {}) ? (body.mapping![`${r.kind}:${r.source_id}`] ?? null) : r.target_id }));
      const answer: StoreCopyAnswer = {
        type,
        id: body.dry_run ? null : id(900),
        name: body.name ?? src.name,
        workspace_id: body.workspace_id,
        references: mapped,
        unresolved: mapped.filter((r) => !r.target_id).map((r) => `${r.kind}:${r.source_id}`),
        needs_authorization: src.snapshot.type === 'tool' && src.snapshot.auth.type !== 'none' ? src.snapshot.auth : null,
      };
      if (!body.dry_run) src.copy_count++;
      return wait(answer);
    },
  };
}
