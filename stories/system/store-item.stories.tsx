import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import type { AdminStoreDetail } from '../../schemas/store';
import { demoStoreItems } from '../../src/app/store/memory-store-api';
import { SystemStoreApiContext, type SystemStoreApi } from '../../src/app/system/store/system-store-api';
import { SystemStoreItem } from '../../src/app/system/store/system-store-item-page';
import { ResourceStory } from '../workspace/resource-story';

/**
 * The store manager's item page (/operation/system/store/{type}/{id}) for a plugin: its own fields
 * (version, author, kinds, checksum, installs) where other items show their project space and copies,
 * and the release action.
 */
type Args = { state: AdminStoreDetail['review_state'] };

function fakeApi(state: Args['state']): SystemStoreApi {
  let item: AdminStoreDetail = { ...demoStoreItems().find((i) => i.type === 'plugin')!, review_state: state, tenant_id: '0e000000-0000-4000-8000-000000000099', tenant_name: 'Default tenant' };
  const wait = <T,>(v: T) => new Promise<T>((r) => setTimeout(() => r(v), 30));
  return {
    get: async () => wait(item),
    segments: async () => wait({ items: [], total: 0, page: 1, page_size: 20 }),
    release: async () => wait((item = { ...item, review_state: 'released', reviewed_at: item.published_at })),
    reject: async (_t, _id, reason) => wait((item = { ...item, review_state: 'rejected', review_reason: reason })),
    offline: async (_t, _id, reason) => wait((item = { ...item, review_state: 'offline', review_reason: reason || null })),
  };
}

const meta = {
  title: 'System/Store item',
  args: { state: 'awaiting_release' },
  loaders: [async ({ args }) => ({ api: fakeApi((args as Args).state) })],
  render: (_args, { loaded }) => (
    <SystemStoreApiContext value={loaded.api}>
      <ResourceStory start="/" routes={[{ path: '*', element: <SystemStoreItem type="plugin" id="0e000000-0000-4000-8000-000000000005" /> }]} />
    </SystemStoreApiContext>
  ),
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

export const PluginAwaitingRelease: Story = {
  play: async ({ canvas, userEvent }) => {
    const page = await canvas.findByTestId('system-store-item', {}, { timeout: 3000 });
    await expect(within(page).getByTestId('store-plugin-version')).toHaveTextContent('2.1.0');
    await expect(within(page).getByTestId('store-plugin-author')).toHaveTextContent('Acme Labs');
    await expect(within(page).getByTestId('store-plugin-kinds')).toHaveTextContent('text-stats');
    await expect(within(page).getByTestId('store-plugin-checksum')).toHaveTextContent(/^sha256-9f2c/);
    await expect(within(page).getByTestId('store-plugin-installs')).toHaveTextContent('7');
    const facts = within(page).getByTestId('system-store-facts');
    await expect(within(facts).queryByText('Project space')).toBeNull();
    await expect(within(facts).queryByText('Copies')).toBeNull();
    await userEvent.click(within(page).getByTestId('system-store-release'));
    await waitFor(() => expect(page).toHaveAttribute('data-state', 'released'));
  },
};

export const PluginReleasedChinese: Story = {
  args: { state: 'released' },
  globals: { locale: 'zh' },
  play: async ({ canvas }) => {
    const page = await canvas.findByTestId('system-store-item', {}, { timeout: 3000 });
    await expect(within(page).getByText('安装次数')).toBeVisible();
    await expect(within(page).getByText('校验和')).toBeVisible();
    await expect(within(page).getByTestId('system-store-offline')).toHaveTextContent('下架');
  },
};
