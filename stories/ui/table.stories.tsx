import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { Avatar } from '../../src/ui/avatar';
import { Badge } from '../../src/ui/badge';
import { Button } from '../../src/ui/button';
import { EmptyState } from '../../src/ui/empty-state';
import { Skeleton } from '../../src/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../src/ui/table';

interface Member {
  id: string;
  name: string;
  email: string;
  role: 'owner' | 'admin' | 'ordinary_member';
}

const members: Member[] = [
  { id: '1', name: 'Ada Lovelace', email: 'ada@example.com', role: 'owner' },
  { id: '2', name: '张三丰', email: 'zhang@example.com', role: 'admin' },
  { id: '3', name: 'Grace Hopper', email: 'grace@example.com', role: 'ordinary_member' },
  { id: '4', name: 'Alan Turing', email: 'alan@example.com', role: 'ordinary_member' },
  { id: '5', name: '李四', email: 'li@example.com', role: 'ordinary_member' },
];

const roleBadge = { owner: 'primary', admin: 'info', ordinary_member: 'neutral' } as const;

function MembersTable({ rows, loading, size, striped }: { rows: Member[]; loading?: boolean; size?: 'sm' | 'md'; striped?: boolean }) {
  return (
    <Table size={size} striped={striped} aria-busy={loading || undefined} aria-label="Members">
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Email</TableHead>
          <TableHead>Role</TableHead>
          <TableHead style={{ width: 80 }} />
        </TableRow>
      </TableHeader>
      <TableBody>
        {loading
          ? Array.from({ length: 3 }, (_, i) => (
              <TableRow key={i}>
                <TableCell><Skeleton width={140} /></TableCell>
                <TableCell><Skeleton width={180} /></TableCell>
                <TableCell><Skeleton width={60} /></TableCell>
                <TableCell />
              </TableRow>
            ))
          : rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={4}>
                  <EmptyState size="sm" title="No members yet" description="Invite people to work on this workspace." />
                </TableCell>
              </TableRow>
            ) : (
              rows.map((m) => (
                <TableRow key={m.id}>
                  <TableCell>
                    <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
                      <Avatar name={m.name} size="sm" /> {m.name}
                    </span>
                  </TableCell>
                  <TableCell>{m.email}</TableCell>
                  <TableCell><Badge variant={roleBadge[m.role]}>{m.role}</Badge></TableCell>
                  <TableCell><Button size="sm" variant="link">Edit</Button></TableCell>
                </TableRow>
              ))
            )}
      </TableBody>
    </Table>
  );
}

const meta = {
  title: 'UI/Table',
  component: MembersTable,
  args: { rows: members },
} satisfies Meta<typeof MembersTable>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getAllByRole('row')).toHaveLength(members.length + 1);
    await expect(canvas.getByRole('columnheader', { name: 'Email' })).toBeVisible();
  },
};
export const NotStriped: Story = { args: { striped: false } };
export const Medium: Story = { args: { size: 'md' } };
export const Loading: Story = { args: { loading: true } };
export const Empty: Story = {
  args: { rows: [] },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No members yet')).toBeVisible();
  },
};
