import type { Meta, StoryObj } from '@storybook/react-vite';
import { Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { z } from 'zod';
import { Database } from '../../schemas/database';
import { SchemaTable, type SortState } from '../../src/kit/schema-table';
import type { SchemaTableProps } from '../../src/kit/schema-table';

/** A row schema of its own: labels are kit keys or raw names, one sortable column, a status with its tooltip. */
const Job = z.object({
  id: z.string(),
  name: z.string().meta({ column: { order: 1, width: 200, label: 'Name', sortable: true } }),
  rows: z.number().meta({ column: { order: 2, width: 90, label: 'Rows', sortable: true } }),
  status: z.enum(['success', 'failed', 'detecting']).meta({ widget: 'status', column: { order: 3, width: 120, label: 'Status' } }),
  message: z.string().meta({ column: { tooltipOf: 'status' } }),
  tags: z.array(z.string()).meta({ widget: 'tags', column: { order: 4, label: 'Tags' } }),
  secret: z.string().meta({ column: false }),
});
type Job = z.infer<typeof Job>;

const STATUSES = ['success', 'failed', 'detecting'] as const;
const jobs = (n: number): Job[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `job-${i + 1}`,
    name: `Import ${String(i + 1).padStart(3, '0')}`,
    rows: (i * 37) % 1000,
    status: STATUSES[i % 3],
    message: i % 3 === 1 ? 'Connection refused' : '',
    tags: i % 2 ? ['nightly'] : [],
    secret: 'never shown',
  }));

/** Server paging and sorting, played by the story. */
function Paged({ count, ...rest }: { count: number } & Partial<SchemaTableProps<Job>>) {
  const all = jobs(count);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const [sort, setSort] = useState<SortState | null>(null);
  const sorted = sort ? [...all].sort((a, b) => (a[sort.id as 'rows'] > b[sort.id as 'rows'] ? 1 : -1) * (sort.desc ? -1 : 1)) : all;
  return (
    <SchemaTable
      schema={Job}
      rows={sorted.slice((page - 1) * pageSize, page * pageSize)}
      total={all.length}
      page={page}
      pageSize={pageSize}
      onPageChange={setPage}
      onPageSizeChange={(s) => {
        setPageSize(s);
        setPage(1);
      }}
      sort={sort}
      onSortChange={setSort}
      actions={[
        { id: 'edit', label: 'Edit', icon: <Pencil aria-hidden="true" />, run: () => {} },
        { id: 'delete', label: 'Delete', icon: <Trash2 aria-hidden="true" />, danger: true, confirm: (r) => ({ title: `Delete ${r.name}?` }), run: () => {} },
      ]}
      {...rest}
    />
  );
}

const meta = {
  title: 'Kit/SchemaTable',
  parameters: { layout: 'padded' },
  globals: { locale: 'en' },
} satisfies Meta;
export default meta;
type Story = StoryObj;

/** 45 rows: 20 a page, the pager, sorting by a header, row actions with a confirmation. */
export const Paging: Story = {
  render: () => <Paged count={45} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Total 45')).toBeVisible();
    await expect(canvas.getAllByRole('row')).toHaveLength(21);
    await expect(canvas.queryByText('never shown')).not.toBeInTheDocument();
    await userEvent.click(canvas.getByRole('button', { name: 'Page 3' }));
    await expect(canvas.getAllByRole('row')).toHaveLength(6);
    await userEvent.click(canvas.getByRole('button', { name: /Rows/ }));
    await expect(canvas.getByRole('columnheader', { name: /Rows/ })).toHaveAttribute('aria-sort', 'ascending');
    await userEvent.click(within(canvas.getAllByRole('row')[1]).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  },
};

/** The project's own row schema: the database list with type, port and detection status. */
export const FromEntitySchema: Story = {
  render: () => (
    <SchemaTable
      schema={Database}
      ns="database"
      overrides={{ type: { optionLabels: 'database.types' } }}
      rows={[
        { id: '1', workspace_id: 'w', name: 'orders', type: 'mysql', host: 'db1.internal', port: 3306, account: 'app', password: '******', database: 'shop', sid: '', remark: '', query_limit: 100, status: 'success', status_code: 'ok', status_message: 'Connected', checked_at: null, created_by: 'u', created_at: '2025-05-01T08:00:00Z', updated_at: '2025-05-01T08:00:00Z' },
        { id: '2', workspace_id: 'w', name: 'ledger', type: 'oracle', host: '10.0.0.7', port: 1521, account: 'fin', password: '******', database: '', sid: 'ORCL', remark: 'Finance', query_limit: 100, status: 'failed', status_code: 'auth_failed', status_message: 'Authentication failed for user "fin"', checked_at: null, created_by: 'u', created_at: '2025-05-02T08:00:00Z', updated_at: '2025-05-02T08:00:00Z' },
      ]}
      total={2}
      page={1}
      pageSize={20}
      onPageChange={() => {}}
    />
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Oracle')).toBeVisible();
    await expect(canvas.getByText('Failed')).toBeVisible();
  },
};

export const Empty: Story = {
  render: () => <SchemaTable schema={Job} rows={[]} total={0} page={1} pageSize={20} onPageChange={() => {}} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No data')).toBeVisible();
    await expect(canvas.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  },
};

export const Loading: Story = { render: () => <SchemaTable schema={Job} rows={null} /> };

export const LoadError: Story = {
  render: () => <SchemaTable schema={Job} rows={[]} error onRetry={() => {}} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Could not load the data')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Retry' })).toBeVisible();
  },
};

/** 5,000 rows rendered by react-virtuoso: only the visible ones are in the page. */
export const Virtual: Story = {
  render: () => <SchemaTable schema={Job} rows={jobs(5000)} virtual={{ height: 360 }} />,
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByText('Import 001')).toBeVisible());
    await expect(canvas.getAllByRole('row').length).toBeLessThan(100);
  },
};
