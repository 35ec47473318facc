/**
 * URLs of the knowledge screens. The spec's routes sit side by side under the project space
 * (`knowledge-unit`, `knowledge-unit-add`, …) with no path ids, so the knowledge base and unit travel
 * as query parameters: `dataset_id`, `document_id`; the add flow hands its uploaded files to the
 * segmentation page as `file_ids` (names ride along in the navigation state).
 */
import { useSearchParams } from 'react-router';

export const wsBase = (workspaceId: string) => `/operation/workspace/${encodeURIComponent(workspaceId)}`;

const withQuery = (path: string, q: Record<string, string | undefined>) => {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') sp.set(k, v);
  const s = sp.toString();
  return s ? `${path}?${s}` : path;
};

export const knowledgePaths = {
  list: (ws: string) => `${wsBase(ws)}/knowledge`,
  units: (ws: string, datasetId: string) => withQuery(`${wsBase(ws)}/knowledge-unit`, { dataset_id: datasetId }),
  add: (ws: string, datasetId: string, kind: 'text' | 'url' = 'text') =>
    withQuery(`${wsBase(ws)}/knowledge-unit-add`, { dataset_id: datasetId, source: kind === 'url' ? 'url' : undefined }),
  addTable: (ws: string, datasetId: string) => withQuery(`${wsBase(ws)}/knowledge-unit-add-table`, { dataset_id: datasetId }),
  slice: (ws: string, datasetId: string, q: { file_ids?: string[]; kind?: 'text' | 'table' | 'url'; url?: string; name?: string; update_frequency?: string; sheet?: string; header_row?: number }) =>
    withQuery(`${wsBase(ws)}/knowledge-slice-method-config`, {
      dataset_id: datasetId,
      kind: q.kind,
      file_ids: q.file_ids?.join(','),
      url: q.url,
      name: q.name,
      update_frequency: q.update_frequency,
      sheet: q.sheet,
      header_row: q.header_row === undefined ? undefined : String(q.header_row),
    }),
  details: (ws: string, datasetId: string, documentId: string, tab?: string) =>
    withQuery(`${wsBase(ws)}/knowledge-unit-details`, { dataset_id: datasetId, document_id: documentId, tab }),
};

/** The query parameters the knowledge screens read. */
export function useKnowledgeQuery() {
  const [sp] = useSearchParams();
  const ids = sp.get('file_ids');
  const header = sp.get('header_row');
  return {
    datasetId: sp.get('dataset_id') ?? '',
    documentId: sp.get('document_id') ?? '',
    source: sp.get('source') ?? '',
    kind: (sp.get('kind') ?? 'text') as 'text' | 'table' | 'url',
    fileIds: ids ? ids.split(',').filter(Boolean) : [],
    url: sp.get('url') ?? '',
    name: sp.get('name') ?? '',
    updateFrequency: sp.get('update_frequency') ?? '',
    sheet: sp.get('sheet') ?? '',
    headerRow: header ? Number(header) : undefined,
    tab: sp.get('tab') ?? '',
  };
}
