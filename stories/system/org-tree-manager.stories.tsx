import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { OrgTreeManager } from '../../src/app/system/orgs/org-tree-manager';
import { systemLoader, withSystemApi, type SystemStoryParams } from './system-story';

const meta = {
  title: 'System/Organisation tree manager',
  component: OrgTreeManager,
  loaders: [systemLoader],
  decorators: [withSystemApi],
  parameters: { system: {} satisfies SystemStoryParams },
  globals: { locale: 'en' },
} satisfies Meta<typeof OrgTreeManager>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Tree: Story = {
  play: async ({ canvas }) => {
    const tree = await canvas.findByRole('list', { name: 'Organisation tree' }, { timeout: 3000 });
    // The root takes children only.
    await expect(within(tree).queryByRole('button', { name: 'Delete "Headquarters"' })).not.toBeInTheDocument();
    await userEvent.click(within(tree).getByRole('button', { name: 'Collapse "Engineering"' }));
    await expect(within(tree).queryByText('Platform')).not.toBeInTheDocument();
  },
};

export const Rename: Story = {
  play: async ({ canvas }) => {
    const tree = await canvas.findByRole('list', { name: 'Organisation tree' }, { timeout: 3000 });
    await userEvent.click(within(tree).getByRole('button', { name: 'Rename "Sales"' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Rename organisation' }));
    const input = dialog.getByLabelText(/^Organisation name/);
    await userEvent.clear(input);
    await userEvent.type(input, 'Sales/EU');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect(await dialog.findByText("An organisation name cannot contain '/'")).toBeVisible();
    await userEvent.clear(input);
    await userEvent.type(input, 'Sales EU');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await expect(await within(tree).findByText('Sales EU')).toBeVisible();
  },
};

export const Chinese: Story = { globals: { locale: 'zh' } };

export const Loading: Story = { parameters: { system: { fake: { hang: true } } } };

export const LoadError: Story = {
  parameters: { system: { fake: { fail: true } } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('The organisation tree could not be loaded')).toBeVisible();
  },
};
