import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AdminStoreDetail } from '../../../schemas/store';
import { i18n, initI18n } from '../../i18n';
import { SystemStoreApiContext, type SystemStoreApi } from '../system/store/system-store-api';
import { SystemStoreItem } from '../system/store/system-store-item-page';
import { createMemoryStoreApi, demoStoreItems, DEMO_STORE_IDS } from './memory-store-api';
import { StoreApiContext } from './store-api';
import { StoreCard } from './store-card';
import { StoreDetail } from './store-detail-page';

// The plugin store's card, detail and the store manager's item page (issue 23): a plugin shows its
// author, what it adds, its installs and checksum, never a project space or a copy count.

beforeAll(async () => {
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(cleanup);
vi.setConfig({ testTimeout: 20_000 });
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

const plugin = () => demoStoreItems().find((i) => i.type === 'plugin')!;

describe('the plugin store card', () => {
  it('shows the author, version, the kinds and tools it adds, and the installs; no space, no copies', () => {
    render(
      <MemoryRouter>
        <StoreCard item={plugin()} to="/operation/store/plugin/x" />
      </MemoryRouter>,
    );
    const card = screen.getByTestId('store-card');
    expect(within(card).getByTestId('store-card-author').textContent).toBe('By Acme Labs · v2.1.0');
    expect(within(card).getByTestId('store-card-adds').textContent).toBe('text-statstext-diffslugify');
    expect(within(card).getByTestId('store-card-installs').textContent).toBe('7 installs');
    expect(within(card).queryByTestId('store-card-copies')).toBeNull();
    expect(within(card).queryByText(/^From /)).toBeNull();
  });

  it('shows only the first three things a plugin adds, and how many more', () => {
    const item = { ...plugin(), copy_count: 1, plugin: { author: '', kinds: ['a', 'b', 'c', 'd'], tools: ['e'] } };
    render(
      <MemoryRouter>
        <StoreCard item={item} to="/x" />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('store-card-adds').textContent).toBe('abc+2');
    expect(screen.getByTestId('store-card-installs').textContent).toBe('1 install');
    expect(screen.getByTestId('store-card-author').textContent).toBe('v2.1.0');
  });
});

describe('the plugin store detail', () => {
  it('shows installs and checksum, and downloads the newest or a chosen version', async () => {
    const api = createMemoryStoreApi();
    const saved: string[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:package');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    render(
      <StoreApiContext value={api}>
        <MemoryRouter>
          <StoreDetail type="plugin" id={DEMO_STORE_IDS.plugin} />
        </MemoryRouter>
      </StoreApiContext>,
    );
    const page = await screen.findByTestId('store-detail');
    expect(within(page).getByTestId('store-plugin-installs').textContent).toBe('7');
    expect(within(page).getByTestId('store-plugin-checksum').textContent).toMatch(/^sha256-9f2c/);
    expect(within(page).getByTestId('store-plugin-author').textContent).toBe('Acme Labs');
    await userEvent.click(within(page).getByTestId('store-download'));
    await waitFor(() => expect(saved).toEqual(['acme.text-tools-2.1.0.tgz']));
    await userEvent.click(within(page).getAllByTestId('store-plugin-version-download')[1]);
    await waitFor(() => expect(saved).toEqual(['acme.text-tools-2.1.0.tgz', 'acme.text-tools-2.0.0.tgz']));
    expect(api.downloads).toEqual([
      { id: DEMO_STORE_IDS.plugin, version: '2.1.0' },
      { id: DEMO_STORE_IDS.plugin, version: '2.0.0' },
    ]);
    click.mockRestore();
  });
});

describe("the store manager's plugin item", () => {
  it('shows the version, author, kinds, checksum and installs, and no project space or copies', async () => {
    const detail: AdminStoreDetail = { ...plugin(), review_state: 'awaiting_release', tenant_id: DEMO_STORE_IDS.app, tenant_name: 'Default tenant' };
    const api: SystemStoreApi = {
      get: async () => detail,
      segments: async () => ({ items: [], total: 0, page: 1, page_size: 20 }),
      release: async () => ({ ...detail, review_state: 'released' }),
      reject: async () => detail,
      offline: async () => detail,
    };
    render(
      <SystemStoreApiContext value={api}>
        <MemoryRouter>
          <SystemStoreItem type="plugin" id={detail.id} />
        </MemoryRouter>
      </SystemStoreApiContext>,
    );
    const page = await screen.findByTestId('system-store-item');
    expect(within(page).getByTestId('store-plugin-version').textContent).toBe('2.1.0');
    expect(within(page).getByTestId('store-plugin-author').textContent).toBe('Acme Labs');
    expect(within(page).getByTestId('store-plugin-kinds').textContent).toContain('text-diff');
    expect(within(page).getByTestId('store-plugin-checksum').textContent).toMatch(/^sha256-9f2c/);
    expect(within(page).getByTestId('store-plugin-installs').textContent).toBe('7');
    const facts = within(page).getByTestId('system-store-facts');
    expect(within(facts).queryByText('Project space')).toBeNull();
    expect(within(facts).queryByText('Copies')).toBeNull();
    // The manager reviews; installing and downloading are on the store's own page.
    expect(within(page).queryByTestId('store-plugin-version-download')).toBeNull();
    await userEvent.click(within(page).getByTestId('system-store-release'));
    await waitFor(() => expect(page.getAttribute('data-state')).toBe('released'));
  });
});
