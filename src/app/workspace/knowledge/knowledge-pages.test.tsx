import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../../i18n';
import { Toaster } from '../../../ui/toast';
import { KnowledgeApiContext } from './knowledge-api';
import { knowledgePaths } from './knowledge-nav';
import KnowledgePage from './knowledge-page';
import KnowledgeSliceMethodConfigPage from './knowledge-slice-method-config-page';
import KnowledgeUnitAddPage from './knowledge-unit-add-page';
import KnowledgeUnitDetailsPage from './knowledge-unit-details-page';
import KnowledgeUnitPage from './knowledge-unit-page';
import { createMemoryKnowledgeApi, type MemoryKnowledgeOptions } from './memory-knowledge-api';
import { INDEX_POLL_MS } from './segment-indexes';
import { POLL_MS } from './unit-status';

beforeAll(async () => {
  Object.assign(Element.prototype, { hasPointerCapture: () => false, setPointerCapture: () => {}, releasePointerCapture: () => {}, scrollIntoView: () => {} });
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
vi.setConfig({ testTimeout: 20_000 });
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

const ws = '/operation/workspace/:workspace_id';

function setup(opts: MemoryKnowledgeOptions = {}, start?: (api: ReturnType<typeof createMemoryKnowledgeApi>) => string) {
  const api = createMemoryKnowledgeApi(opts);
  const wrap = (el: ReactNode) => <KnowledgeApiContext value={api}>{el}</KnowledgeApiContext>;
  const router = createMemoryRouter(
    [
      { path: `${ws}/knowledge`, element: wrap(<KnowledgePage />) },
      { path: `${ws}/knowledge-unit`, element: wrap(<KnowledgeUnitPage />) },
      { path: `${ws}/knowledge-unit-add`, element: wrap(<KnowledgeUnitAddPage />) },
      { path: `${ws}/knowledge-slice-method-config`, element: wrap(<KnowledgeSliceMethodConfigPage />) },
      { path: `${ws}/knowledge-unit-details`, element: wrap(<KnowledgeUnitDetailsPage />) },
    ],
    { initialEntries: [start ? start(api) : knowledgePaths.list(api.workspaceId)] },
  );
  render(
    <>
      <RouterProvider router={router} />
      <Toaster />
    </>,
  );
  // Under a fake clock user-event's pause between keys moves it on too (it would wait for the clock to tick).
  return { api, router, user: userEvent.setup(vi.isFakeTimers() ? { advanceTimers: vi.advanceTimersByTime } : {}) };
}

/**
 * The screens poll on setTimeout (the unit list every 2 s, a unit's index generation every 1.5 s): a
 * test that follows the polls moves this clock on by one interval at a time instead of waiting them
 * out (10 s of the file's 27). Only setTimeout is faked and it still moves with real time, so findBy…,
 * React's scheduler and the memory API's zero-delay waits run as before. Called before setup().
 */
function fakePollClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
}

/** Moves the fake clock on one poll interval at a time (at most ten) until `done`. */
async function pollUntil(done: () => boolean, intervalMs: number) {
  for (let polls = 0; polls < 10 && !done(); polls++) await act(() => vi.advanceTimersByTimeAsync(intervalMs));
}

describe('knowledge screens', () => {
  it('creates a knowledge base after check-names, refusing a taken name', async () => {
    const { api, user } = setup();
    await screen.findByText('Product manuals');
    await user.click(screen.getByTestId('kb-create'));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByTestId('kb-save'));
    expect(within(dialog).getByText('This form field is required!')).toBeInTheDocument();
    await user.type(within(dialog).getByTestId('kb-name'), 'Support FAQ');
    await user.click(within(dialog).getByTestId('kb-save'));
    expect(await within(dialog).findByText('This name is already used')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'createDataset')).toBe(false);
    await user.clear(within(dialog).getByTestId('kb-name'));
    await user.type(within(dialog).getByTestId('kb-name'), 'Legal');
    await user.click(within(dialog).getByTestId('kb-save'));
    expect(await screen.findByText('Legal')).toBeInTheDocument();
    expect(api.datasets.map((d) => d.name)).toContain('Legal');
  });

  it('shows unit states with progress and refreshes until processing ends; graph analysis only once vectorised', async () => {
    fakePollClock();
    const { api } = setup({ units: [{ name: 'done.pdf', status: 'completed' }, { name: 'new.txt', status: 'waiting', progress: 0 }] }, (a) => knowledgePaths.units(a.workspaceId, a.datasets[0]!.id));
    const row = (name: string) => screen.getAllByTestId('unit-row').find((r) => r.dataset.name === name)!;
    await screen.findByText('done.pdf');
    expect(within(row('done.pdf')).getByRole('button', { name: 'Graph analysis of done.pdf' })).toBeInTheDocument();
    expect(within(row('new.txt')).queryByRole('button', { name: /Graph analysis/ })).toBeNull();
    expect(within(row('new.txt')).getByRole('button', { name: 'Take new.txt out of the queue' })).toBeInTheDocument();
    // The memory API moves the unit one step per list call; the page keeps polling until it is done.
    await pollUntil(() => row('new.txt').dataset.status === 'completed', POLL_MS);
    expect(row('new.txt').dataset.status).toBe('completed');
    expect(within(row('new.txt')).getByText('Done')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'listDocuments').length).toBeGreaterThan(3);
  });

  it('shows the queue position of a queued graph analysis', async () => {
    setup({ advance: false, units: [{ name: 'a.pdf', graph_status: 'queued' }, { name: 'b.pdf', graph_status: 'queued' }] }, (a) => knowledgePaths.units(a.workspaceId, a.datasets[0]!.id));
    expect(await screen.findByText('In queue, position 2')).toBeInTheDocument();
    expect(screen.getByText('In queue, position 1')).toBeInTheDocument();
  });

  it('uploads a text file with progress, previews the segmentation, and creates the unit', async () => {
    const { api, router, user } = setup({ units: [{ name: 'guide.pdf' }] }, (a) => knowledgePaths.add(a.workspaceId, a.datasets[0]!.id));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'listDocuments')).toBe(true));
    const input = screen.getByTestId('upload-input') as HTMLInputElement;
    await user.upload(input, [new File(['x'], 'guide.pdf'), new File(['hello'], 'notes.txt')]);
    expect(screen.getByRole('alert')).toHaveTextContent('A file of this name is already in the knowledge base');
    expect(await screen.findByText('Upload success')).toBeInTheDocument();
    await user.click(screen.getByTestId('add-next'));
    await screen.findByTestId('knowledge-slice-page');
    expect(router.state.location.search).toContain('file_ids=');
    await waitFor(() => expect(screen.getAllByTestId('preview-segment').length).toBeGreaterThan(0), { timeout: 5000 });
    const overlap = screen.getByLabelText(/^Segment overlap/);
    await user.clear(overlap);
    await user.type(overlap, '900');
    expect(await screen.findByText('The overlap must be less than the maximum length')).toBeInTheDocument();
    await user.clear(overlap);
    await user.type(overlap, '10');
    await user.click(screen.getByTestId('slice-save'));
    await screen.findByTestId('knowledge-unit-page');
    const created = api.calls.find((c) => c.method === 'createDocuments')!.args[1] as { sources: { name: string }[]; settings: { overlap: number; max_length: number } };
    expect(created.sources.map((s) => s.name)).toEqual(['notes.txt']);
    expect(created.settings).toMatchObject({ overlap: 10, max_length: 800 });
    expect(await screen.findByText('notes.txt')).toBeInTheDocument();
  });

  it('adds a web page with its update frequency, refusing a URL the base already has', async () => {
    const { api, router, user } = setup({ units: [{ name: 'docs', source_url: 'https://example.org/docs' }] }, (a) => knowledgePaths.add(a.workspaceId, a.datasets[0]!.id, 'url'));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'listDocuments')).toBe(true));
    await user.type(screen.getByTestId('add-url'), 'https://example.org/docs');
    await user.click(screen.getByTestId('add-next'));
    expect(await screen.findByText('This URL already exists')).toBeInTheDocument();
    await user.clear(screen.getByTestId('add-url'));
    await user.type(screen.getByTestId('add-url'), 'https://example.org/faq');
    await user.click(screen.getByTestId('add-next'));
    await screen.findByTestId('knowledge-slice-page');
    const sp = new URLSearchParams(router.state.location.search);
    expect([sp.get('kind'), sp.get('url'), sp.get('name'), sp.get('update_frequency')]).toEqual(['url', 'https://example.org/faq', 'example.org/faq', 'none']);
    await waitFor(() => expect(screen.getAllByTestId('preview-segment').length).toBeGreaterThan(0), { timeout: 5000 });
    await user.click(screen.getByTestId('slice-save'));
    await screen.findByTestId('knowledge-unit-page');
    expect(await screen.findByText('example.org/faq')).toBeInTheDocument();
  });

  it('disables Q&A generation before the click when no chat model is configured, saying what is missing', async () => {
    const { api } = setup({ noModel: true }, (a) => knowledgePaths.details(a.workspaceId, a.datasets[0]!.id, a.documents[0]!.id, 'qa'));
    const generate = await screen.findByTestId('qa-generate');
    await waitFor(() => expect(generate).toBeDisabled());
    expect(within(screen.getByTestId('qa-generation')).getByTestId('no-model-notice')).toHaveTextContent('No chat model is configured.');
    expect(api.calls.some((c) => c.method === 'startQaGeneration')).toBe(false);
  });

  it('offers Q&A generation when a chat model exists', async () => {
    setup({}, (a) => knowledgePaths.details(a.workspaceId, a.datasets[0]!.id, a.documents[0]!.id, 'qa'));
    const generate = await screen.findByTestId('qa-generate');
    await waitFor(() => expect(generate).toBeEnabled());
    expect(screen.queryByTestId('no-model-notice')).toBeNull();
  });

  it('says a missing knowledge base does not exist and offers no add buttons', async () => {
    setup({}, (a) => knowledgePaths.units(a.workspaceId, '0f000000-0000-4000-8000-0000000000b0'));
    expect(await screen.findByText('The knowledge base does not exist or you have no permission')).toBeInTheDocument();
    expect(screen.queryByTestId('unit-add-text')).toBeNull();
    expect(screen.queryByTestId('unit-add-url')).toBeNull();
    expect(screen.queryByTestId('unit-add-table')).toBeNull();
  });

  it('runs a hit test on the details page and keeps it in the history', async () => {
    const { api, user } = setup({}, (a) => knowledgePaths.details(a.workspaceId, a.datasets[0]!.id, a.documents[0]!.id, 'hit'));
    await user.type(await screen.findByTestId('hit-query'), 'segments retrieval');
    await user.click(screen.getByTestId('hit-run'));
    const results = await screen.findAllByTestId('hit-result');
    expect(results.length).toBeGreaterThan(0);
    // The history list reloads after the results arrive.
    expect(await within(await screen.findByTestId('hit-history')).findByText('segments retrieval')).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'hitTest')!.args[1]).toMatchObject({ query: 'segments retrieval', mode: 'hybrid', top_k: 5 });
  });
});

describe('issue 33: refresh now, graph failure reason, graph minimum relevance', () => {
  it('offers "refresh now" on an idle URL unit only, queues it, and shows why a graph analysis failed', async () => {
    const { api, user } = setup(
      {
        units: [
          { name: 'site', source_url: 'https://intranet.example/docs', file_type: 'html', update_frequency: '7', graph_status: 'failed', graph_error: 'The model answered 500: model crashed' },
          { name: 'file.pdf' },
          { name: 'busy-site', source_url: 'https://intranet.example/busy', status: 'waiting', progress: 0 },
        ],
      },
      (a) => knowledgePaths.units(a.workspaceId, a.datasets[0]!.id),
    );
    const row = (name: string) => screen.getAllByTestId('unit-row').find((r) => r.dataset.name === name)!;
    await screen.findByText('file.pdf');
    expect(within(row('file.pdf')).queryByTestId('unit-refresh')).toBeNull();
    expect(within(row('busy-site')).queryByTestId('unit-refresh')).toBeNull();
    expect(within(row('site')).getByTestId('unit-graph-error')).toHaveTextContent('Graph analysis failed: The model answered 500: model crashed');
    expect(within(row('file.pdf')).queryByTestId('unit-graph-error')).toBeNull();
    await user.click(within(row('site')).getByRole('button', { name: 'Refresh site from its URL now' }));
    expect(await screen.findByText('Refresh queued')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'refreshNow').map((c) => c.args)).toEqual([[api.documents.find((d) => d.name === 'site')!.id]]);
  });

  it('sets a base’s graph minimum relevance in its edit dialog, refusing a value out of range', async () => {
    const { api, user } = setup();
    await screen.findByText('Product manuals');
    await user.click(screen.getByRole('button', { name: 'Edit Product manuals' }));
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByTestId('kb-graph-min-relevance');
    expect(field).toHaveValue(0.3);
    await user.clear(field);
    await user.type(field, '0.7');
    await user.click(within(dialog).getByTestId('kb-save'));
    // The field's help becomes its error.
    expect(await within(dialog).findByText('Hit tests add knowledge-graph neighbours scoring at least this (0 to 0.5)')).toHaveAttribute('role', 'alert');
    expect(api.calls.some((c) => c.method === 'updateDataset')).toBe(false);
    await user.clear(field);
    await user.type(field, '0.45');
    await user.click(within(dialog).getByTestId('kb-save'));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'updateDataset')?.args).toEqual([api.datasets[0]!.id, { name: 'Product manuals', description: 'Manuals of every product line', graph_min_relevance: 0.45 }]));
  });
  it('lets a hit test pass its own graph minimum relevance (up to 0.5, the base’s by default) beside the semantic one (up to 1)', async () => {
    const { api, user } = setup({}, (a) => knowledgePaths.details(a.workspaceId, a.datasets[0]!.id, a.documents[0]!.id, 'hit'));
    await user.type(await screen.findByTestId('hit-query'), 'segments retrieval');
    const semantic = screen.getByRole('textbox', { name: 'Minimum relevance' });
    expect(semantic).toHaveAttribute('aria-valuemax', '1');
    // Only with the graph on: its own field, starting at the base's stored value.
    expect(screen.queryByRole('textbox', { name: 'Graph minimum relevance' })).toBeNull();
    await user.click(screen.getByRole('switch', { name: 'Also search the knowledge graph' }));
    const graph = await screen.findByRole('textbox', { name: 'Graph minimum relevance' });
    await waitFor(() => expect(graph).toHaveValue('0.3'));
    expect(graph).toHaveAttribute('aria-valuemax', '0.5');
    expect(semantic).toHaveAttribute('aria-valuemax', '1');
    await user.clear(semantic);
    await user.type(semantic, '0.8');
    await user.clear(graph);
    await user.type(graph, '0.9');
    await user.click(screen.getByTestId('hit-run'));
    // Out of range: said on the field, nothing sent.
    expect(await screen.findByText('0 to 0.5')).toHaveAttribute('role', 'alert');
    expect(api.calls.some((c) => c.method === 'hitTest')).toBe(false);
    await user.clear(graph);
    await user.type(graph, '0.15');
    await user.click(screen.getByTestId('hit-run'));
    await screen.findAllByTestId('hit-result');
    expect(api.calls.find((c) => c.method === 'hitTest')!.args[1]).toMatchObject({ graph: true, score_threshold: 0.8, graph_min_relevance: 0.15 });
  });
});

describe('issue 33: segment index entries and segment delete', () => {
  const open = () => setup({}, (a) => knowledgePaths.details(a.workspaceId, a.datasets[0]!.id, a.documents[0]!.id, 'segments'));

  it('adds, edits and removes a segment’s entries by hand, and has the model generate them', async () => {
    const { api, user } = open();
    await user.click(await screen.findByRole('button', { name: 'Index entries of segment 1' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('No index entries yet')).toBeInTheDocument();
    await user.click(within(dialog).getByTestId('segment-index-add'));
    await user.click(within(dialog).getByTestId('segment-index-save'));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('An entry has no text: write it or remove it');
    expect(api.calls.some((c) => c.method === 'setSegmentIndexes')).toBe(false);
    await user.type(within(dialog).getByRole('textbox', { name: 'Text of entry 1' }), 'Where does Weft keep knowledge?');
    // Unsaved changes: the model may not overwrite them.
    expect(within(dialog).getByTestId('segment-index-regenerate')).toBeDisabled();
    await user.click(within(dialog).getByTestId('segment-index-save'));
    await waitFor(() => expect(api.indexes).toHaveLength(1));
    const seg1 = api.segments[0]!.id;
    expect(api.calls.find((c) => c.method === 'setSegmentIndexes')!.args).toEqual([seg1, [{ type: 'question', content: 'Where does Weft keep knowledge?' }]]);
    expect(within(dialog).getByTestId('segment-index')).toHaveTextContent('Written by hand');
    await user.click(within(dialog).getByTestId('segment-index-regenerate'));
    await waitFor(() => expect(within(dialog).getAllByTestId('segment-index')).toHaveLength(4));
    expect(within(dialog).getAllByTestId('segment-index').map((r) => [r.dataset.type, r.dataset.source])).toEqual([
      ['question', 'manual'],
      ['question', 'generated'],
      ['summary', 'generated'],
      ['keyword', 'generated'],
    ]);
    // Remove the hand-written one, edit a generated one (it becomes hand-written), save the list whole.
    await user.click(within(dialog).getByRole('button', { name: 'Remove entry 1' }));
    const summary = within(dialog).getByRole('textbox', { name: 'Text of entry 2' });
    await user.clear(summary);
    await user.type(summary, 'How Weft stores knowledge');
    await user.click(within(dialog).getByTestId('segment-index-save'));
    await waitFor(() => expect(api.indexes.map((e) => [e.type, e.source, e.segment_id])).toEqual([
      ['question', 'generated', seg1],
      ['summary', 'manual', seg1],
      ['keyword', 'generated', seg1],
    ]));
    expect(api.indexes[1]!.content).toBe('How Weft stores knowledge');
  });

  it('deletes a segment only after confirming, and generates every segment’s entries with its state', async () => {
    fakePollClock();
    const { api, user } = open();
    const before = (await screen.findAllByTestId('segment')).length;
    const second = api.segments[1]!;
    await user.click(screen.getByRole('button', { name: 'Delete segment 2' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('Delete segment 2?');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.calls.some((c) => c.method === 'deleteSegment')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Delete segment 2' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getAllByTestId('segment')).toHaveLength(before - 1));
    expect(api.calls.find((c) => c.method === 'deleteSegment')!.args).toEqual([second.id]);
    expect(await screen.findByText('Segment deleted')).toBeInTheDocument();

    expect(await screen.findByTestId('unit-indexes-count')).toHaveTextContent(`0 of ${before - 1} segments indexed · 0 entries`);
    await user.click(screen.getByTestId('unit-indexes-generate'));
    expect(await screen.findByTestId('unit-indexes-state')).toHaveTextContent('Generation queued 1');
    await pollUntil(() => screen.getByTestId('unit-indexes-state').dataset.status === 'completed', INDEX_POLL_MS);
    expect(screen.getByTestId('unit-indexes-state')).toHaveAttribute('data-status', 'completed');
    expect(screen.getByTestId('unit-indexes-count')).toHaveTextContent(`${before - 1} of ${before - 1} segments indexed · ${3 * (before - 1)} entries`);
  });
});
