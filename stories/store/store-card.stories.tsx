import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { createMemoryStoreApi, demoStoreItems, manyApps } from '../../src/app/store/memory-store-api';
import { StoreApiContext } from '../../src/app/store/store-api';
import { StoreCard } from '../../src/app/store/store-card';
import { StoreGallery } from '../../src/app/store/store-gallery-page';
import { detailPath } from '../../src/app/store/store-kinds';
import type { SpaceStoreType, StoreItemType } from '../../schemas/store';
import { ResourceStory } from '../workspace/resource-story';

/** The gallery card of each store type, and the gallery itself (virtualised, filters, empty and error states). */
type Args = { type: StoreItemType; many?: number; empty?: boolean; failList?: boolean };

const meta = {
  title: 'Store/Gallery',
  args: { type: 'app' },
  loaders: [async ({ args }) => ({ api: createMemoryStoreApi({ items: (args as Args).empty ? [] : [...demoStoreItems(), ...manyApps((args as Args).many ?? 0)], failList: (args as Args).failList, latencyMs: 30 }) })],
  render: (args, { loaded }) => (
    <StoreApiContext value={loaded.api}>
      <ResourceStory start="/" routes={[{ path: '/', element: <StoreGallery type={(args as Args).type} /> }]} />
    </StoreApiContext>
  ),
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** One card per store type; the review state shows where the system store lists them. */
export const Cards: Story = {
  render: () => (
    <ResourceStory
      start="/"
      routes={[
        {
          path: '/',
          element: (
            <div style={{ display: 'grid', gridTemplateColumns: 'repeat(2, 300px)', gap: 12, padding: 24 }}>
              {demoStoreItems().map((item, i) => (
                <StoreCard key={item.id} item={i === 3 ? { ...item, review_state: 'rejected', review_reason: 'No description' } : item} to={detailPath(item.type as SpaceStoreType, item.id)} showState={i === 3} />
              ))}
            </div>
          ),
        },
      ]}
    />
  ),
  play: async ({ canvas }) => {
    const cards = await canvas.findAllByTestId('store-card');
    await expect(cards).toHaveLength(5);
    await expect(within(cards[0]).getByRole('link', { name: 'Open Order helper' })).toHaveAttribute('href', detailPath('app', demoStoreItems()[0].id));
    await expect(within(cards[0]).getByText('Workflow')).toBeVisible();
    await expect(within(cards[1]).getByText('2 documents · 3 segments')).toBeVisible();
    await expect(within(cards[2]).getByTestId('store-card-copies')).toHaveTextContent('31 copies');
    await expect(within(cards[3]).getByText('Rejected')).toBeVisible();
    // A plugin: what it adds, its author and version, its installs; no project space, no copies.
    await expect(within(cards[4]).getByTestId('store-card-adds')).toHaveTextContent('text-statstext-diffslugify');
    await expect(within(cards[4]).getByTestId('store-card-author')).toHaveTextContent('By Acme Labs · v2.1.0');
    await expect(within(cards[4]).getByTestId('store-card-installs')).toHaveTextContent('7 installs');
    await expect(within(cards[4]).queryByTestId('store-card-copies')).toBeNull();
  },
};

/** The plugin store: cards with the author, the kinds and tools a package adds, and its installs; sorted by installs. */
export const Plugins: Story = {
  args: { type: 'plugin' },
  play: async ({ canvas }) => {
    const card = await canvas.findByTestId('store-card', {}, { timeout: 3000 });
    await expect(within(card).getByTestId('store-card-installs')).toHaveTextContent('7 installs');
    await expect(within(card).getByText('text-diff')).toBeVisible();
    await userEvent.click(canvas.getByRole('combobox', { name: 'Sort' }));
    // The list fades in: visible once its opening animation has run.
    const option = await within(document.body).findByRole('option', { name: 'Most installed' });
    await waitFor(() => expect(option).toBeVisible());
    await userEvent.keyboard('{Escape}');
  },
};

export const PluginsChinese: Story = {
  args: { type: 'plugin' },
  globals: { locale: 'zh' },
  play: async ({ canvas }) => {
    const card = await canvas.findByTestId('store-card', {}, { timeout: 3000 });
    await expect(within(card).getByTestId('store-card-installs')).toHaveTextContent('7 次安装');
    await expect(within(card).getByTestId('store-card-author')).toHaveTextContent('作者 Acme Labs · v2.1.0');
  },
};

/** Sixty apps: the grid renders what is in view and loads the next page at the end. */
export const ManyApps: Story = {
  args: { type: 'app', many: 60 },
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByText('61 in all')).toBeVisible(), { timeout: 3000 });
    // The grid measures its box before it renders the cards in view.
    await waitFor(() => expect(canvas.getAllByTestId('store-card').length).toBeGreaterThan(3), { timeout: 3000 });
    await expect(canvas.getAllByTestId('store-card').length).toBeLessThan(61);
    await userEvent.click(canvas.getByRole('combobox', { name: 'Sort' }));
    await userEvent.click(await within(document.body).findByRole('option', { name: 'Most copied' }));
    await waitFor(() => expect(within(canvas.getAllByTestId('store-card')[0]).getByTestId('store-card-copies')).toHaveTextContent('22 copies'));
  },
};

/** A filter that matches nothing offers to clear the filters. */
export const NoMatch: Story = {
  args: { type: 'prompt' },
  play: async ({ canvas }) => {
    await canvas.findByTestId('store-card', {}, { timeout: 3000 });
    await userEvent.type(canvas.getByRole('searchbox', { name: 'Search names, descriptions or tags' }), 'zzz');
    await waitFor(() => expect(canvas.getByText('No prompt matches')).toBeVisible(), { timeout: 3000 });
    await userEvent.click(canvas.getByRole('button', { name: 'Clear filters' }));
    await expect(await canvas.findByTestId('store-card')).toBeVisible();
  },
};

export const EmptyStore: Story = {
  args: { type: 'dataset', empty: true },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No knowledge base in the store yet', {}, { timeout: 3000 })).toBeVisible();
  },
};

export const LoadFailed: Story = {
  args: { type: 'tool', failList: true },
  play: async ({ canvas }) => {
    await expect(await canvas.findByTestId('store-error', {}, { timeout: 3000 })).toBeVisible();
  },
};

export const Chinese: Story = {
  args: { type: 'tool' },
  globals: { locale: 'zh' },
  play: async ({ canvas }) => {
    const card = await canvas.findByTestId('store-card', {}, { timeout: 3000 });
    await expect(within(card).getByText('1 个功能')).toBeVisible();
  },
};
