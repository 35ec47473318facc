import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import type { StoreItemType } from '../../schemas/store';
import { createMemoryStoreApi, DEMO_STORE_IDS, type MemoryStoreApi } from '../../src/app/store/memory-store-api';
import { StoreApiContext } from '../../src/app/store/store-api';
import { StoreDetail } from '../../src/app/store/store-detail-page';
import { ResourceStory } from '../workspace/resource-story';
import { useSession } from '../../src/app/session';

/** The detail parts of each store type (app flow read-only, knowledge documents and segments, prompt content and variables, tool functions, plugin kinds and versions) and the copy dialog. */
type Args = { type: StoreItemType; id?: string };

const meta = {
  title: 'Store/Detail',
  args: { type: 'prompt' },
  loaders: [
    async () => {
      // Signed out, whatever a story of another file left in the shared page's session store.
      useSession.setState(useSession.getInitialState(), true);
      return { api: createMemoryStoreApi({ latencyMs: 30 }) };
    },
  ],
  render: (args, { loaded }) => {
    const a = args as Args;
    return (
      <StoreApiContext value={loaded.api}>
        <ResourceStory start="/" routes={[{ path: '*', element: <StoreDetail type={a.type} id={a.id ?? DEMO_STORE_IDS[a.type]} /> }]} />
      </StoreApiContext>
    );
  },
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const loaded = () => screen.findByTestId('store-detail', {}, { timeout: 3000 });

export const Prompt: Story = {
  args: { type: 'prompt' },
  play: async () => {
    const page = await loaded();
    await expect(within(page).getByText('Summarise {text} in at most {words} words, in the language of the text.')).toBeVisible();
    await expect(within(page).getByRole('cell', { name: 'The text to summarise' })).toBeVisible();
    await expect(within(page).getAllByText('LLM chain').length).toBeGreaterThan(0);
  },
};

/** The documents; the first one's segments; a document without segments says so. */
export const KnowledgeBase: Story = {
  args: { type: 'dataset' },
  play: async () => {
    const page = await loaded();
    await waitFor(() => expect(within(page).getAllByTestId('store-segment')).toHaveLength(3));
    await userEvent.click(within(page).getByRole('button', { name: /Shipping FAQ\.md/ }));
    await expect(await within(page).findByText('This document has no segments')).toBeVisible();
  },
};

/** The functions with their parameter tables; the store keeps no credential. */
export const Tool: Story = {
  args: { type: 'tool' },
  play: async () => {
    const page = await loaded();
    await expect(within(page).getByText('get_weather')).toBeVisible();
    await expect(within(page).getAllByText('city').length).toBeGreaterThan(0);
    await expect(within(page).getByText('The store keeps no credentials: after copying, give the tool a credential of your space.')).toBeVisible();
  },
};

/** The flow on the read-only canvas, and the copy dialog's mapping: one knowledge base matched by store origin, one tool left to choose. */
export const AppCopy: Story = {
  args: { type: 'app' },
  play: async () => {
    const page = await loaded();
    await waitFor(() => expect(page.querySelectorAll('.react-flow__node').length).toBeGreaterThan(1), { timeout: 5000 });
    await userEvent.click(within(page).getByTestId('store-copy'));
    const dialog = await screen.findByTestId('store-copy-dialog');
    await waitFor(() => expect(within(dialog).getAllByTestId('store-copy-ref')).toHaveLength(2));
    const [kb, tool] = within(dialog).getAllByTestId('store-copy-ref');
    await expect(within(kb).getByText('Matched by store origin')).toBeVisible();
    await expect(within(tool).getByText('Not matched')).toBeVisible();
    await userEvent.click(within(dialog).getByTestId('store-copy-submit'));
    await expect(await within(dialog).findByTestId('store-copy-unresolved')).toHaveTextContent('1 reference is unset');
    await expect(within(page).getByTestId('store-detail-copies')).toHaveTextContent('13');
  },
};

/** A copied tool starts without a credential: the dialog gives it one of the target space's. */
export const ToolCopyAuthorization: Story = {
  args: { type: 'tool' },
  play: async () => {
    const page = await loaded();
    await userEvent.click(within(page).getByTestId('store-copy'));
    const dialog = await screen.findByTestId('store-copy-dialog');
    await waitFor(() => expect(within(dialog).getByTestId('store-copy-submit')).toBeEnabled());
    await userEvent.click(within(dialog).getByTestId('store-copy-submit'));
    const auth = await within(dialog).findByTestId('store-tool-authorization');
    await expect(auth).toHaveTextContent('This tool needs authentication (API key)');
    await expect(await within(auth).findByRole('combobox', { name: 'Credential' })).toHaveTextContent('weather key');
    await userEvent.click(within(auth).getByTestId('store-tool-authorize'));
    await expect(await within(auth).findByTestId('store-tool-authorized')).toHaveTextContent('The copy uses the credential “weather key”');
  },
};

/** A plugin: author, version, installs, checksum, the kinds and tools it adds, its versions; anyone downloads a version's package. */
export const Plugin: Story = {
  args: { type: 'plugin' },
  play: async ({ loaded: data }) => {
    const page = await loaded();
    await expect(within(page).getByTestId('store-plugin-author')).toHaveTextContent('Acme Labs');
    await expect(within(page).getByTestId('store-plugin-installs')).toHaveTextContent('7');
    await expect(within(page).getByTestId('store-plugin-checksum')).toHaveTextContent(/^sha256-9f2c/);
    await expect(within(page).getByTestId('store-plugin-kinds')).toHaveTextContent('text-diff');
    await expect(within(page).getAllByTestId('store-plugin-version-row')).toHaveLength(2);
    // Nobody signed in as a super admin here: download, but no install.
    await expect(within(page).queryByTestId('store-install')).toBeNull();
    await userEvent.click(within(page).getAllByTestId('store-plugin-version-download')[1]);
    await waitFor(() => expect((data.api as MemoryStoreApi).downloads).toEqual([{ id: DEMO_STORE_IDS.plugin, version: '2.0.0' }]));
    const downloaded = await screen.findByText('acme.text-tools-2.0.0.tgz is downloaded');
    await waitFor(() => expect(downloaded).toBeVisible());
  },
};

export const PluginChinese: Story = {
  args: { type: 'plugin' },
  globals: { locale: 'zh' },
  play: async () => {
    const page = await loaded();
    await expect(within(page).getByTestId('store-download')).toHaveTextContent('下载');
    await expect(within(page).getByText('安装次数')).toBeVisible();
    await expect(within(page).getByText('校验和')).toBeVisible();
  },
};

export const Missing: Story = {
  args: { type: 'tool', id: '0e000000-0000-4000-8000-00000000dead' },
  play: async () => {
    await expect(await screen.findByTestId('store-detail-missing', {}, { timeout: 3000 })).toBeVisible();
  },
};

export const ChineseKnowledgeBase: Story = {
  args: { type: 'dataset' },
  globals: { locale: 'zh' },
  play: async () => {
    const page = await loaded();
    await expect(within(page).getByText('复制到项目空间')).toBeVisible();
  },
};
