import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { ErrorScreen } from '../../src/app/shell/error-screen';

const meta = {
  title: 'Shell/Error screen',
  component: ErrorScreen,
  args: { onBack: fn() },
} satisfies Meta<typeof ErrorScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A workspace or app id that does not exist (or belongs to another tenant): the id is shown. */
export const NotFound: Story = {
  args: { kind: 'not-found', id: '30b2f5f8-dbd1-4dd0-bd92-693ae07f6dbd' },
  play: async ({ canvasElement, args }) => {
    const c = within(canvasElement);
    await expect(c.getByTestId('error-id')).toHaveTextContent('30b2f5f8-dbd1-4dd0-bd92-693ae07f6dbd');
    await userEvent.click(c.getByTestId('error-back'));
    await expect(args.onBack).toHaveBeenCalledOnce();
  },
};

/** A resource outside the user's spaces. */
export const NoPermission: Story = {
  args: { kind: 'no-permission', back: 'store' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(c.getByTestId('error-screen')).toHaveAttribute('data-kind', 'no-permission');
    await expect(c.queryByTestId('error-id')).toBeNull();
  },
};

/** A page that does not exist (the /404 page uses it full-page). */
export const Lost: Story = {
  args: { kind: 'lost', back: 'system' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByTestId('error-back')).toBeVisible();
  },
};
