import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { ProjectTabs, PROJECT_TABS } from '../../src/app/shell/project-tabs';
import { withRouter } from './with-router';

const meta = {
  title: 'Shell/Project tabs',
  component: ProjectTabs,
  decorators: [withRouter],
  parameters: { route: '/operation/workspace/w1/member' },
  args: { workspaceId: 'w1', active: 'member' },
} satisfies Meta<typeof ProjectTabs>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The tabs of a project space (characters included), each linking to its page; the current one marked. */
export const MemberActive: Story = {
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    for (const tab of PROJECT_TABS) {
      await expect(c.getByTestId(`project-tab-${tab.key}`)).toHaveAttribute('href', `/operation/workspace/w1/${tab.key}`);
    }
    await expect(c.getAllByRole('link')).toHaveLength(PROJECT_TABS.length);
    await expect(c.getByTestId('project-tab-character')).toBeVisible();
    await expect(c.getByTestId('project-tab-member')).toHaveAttribute('aria-current', 'page');
  },
};

export const ApplicationActive: Story = {
  args: { active: 'app' },
  parameters: { route: '/operation/workspace/w1/app' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByTestId('project-tab-app')).toHaveAttribute('aria-current', 'page');
  },
};
