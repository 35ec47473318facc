import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn } from 'storybook/test';
import { Pagination } from '../../src/ui/pagination';

const meta = {
  title: 'UI/Pagination',
  component: Pagination,
  args: { page: 1, pageSize: 20, total: 386, onPageChange: fn(), onPageSizeChange: fn() },
} satisfies Meta<typeof Pagination>;

export default meta;
type Story = StoryObj<typeof meta>;

function Controlled({ total }: { total: number }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  return (
    <Pagination
      page={page}
      pageSize={pageSize}
      total={total}
      onPageChange={setPage}
      onPageSizeChange={(s) => {
        setPageSize(s);
        setPage(1);
      }}
    />
  );
}

export const Default: Story = {
  render: (args) => <Controlled total={args.total} />,
  play: async ({ canvas, userEvent }) => {
    await expect(canvas.getByText('Total 386')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Next page' }));
    await expect(canvas.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await userEvent.click(canvas.getByRole('button', { name: 'Page 20' }));
    await expect(canvas.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await userEvent.type(canvas.getByRole('textbox'), '7{Enter}');
    await expect(canvas.getByRole('button', { name: 'Page 7' })).toHaveAttribute('aria-current', 'page');
  },
};

export const Middle: Story = { args: { page: 9 } };
export const FewPages: Story = { args: { total: 45 } };
export const Empty: Story = { args: { total: 0 } };
export const Disabled: Story = { args: { page: 3, disabled: true } };
export const NoSizes: Story = { args: { onPageSizeChange: undefined, showJump: false } };
export const Translated: Story = {
  args: {
    page: 2,
    labels: { total: (n) => `共 ${n} 条`, previous: '上一页', next: '下一页', page: (p) => `第 ${p} 页`, pageSize: (n) => `${n} 条/页`, jump: '前往', nav: '分页' },
  },
};
