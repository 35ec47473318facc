import type { Meta, StoryObj } from '@storybook/react-vite';
import { Plus, Search, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Avatar } from '../../src/ui/avatar';
import { Badge } from '../../src/ui/badge';
import { Breadcrumb } from '../../src/ui/breadcrumb';
import { Button } from '../../src/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../src/ui/card';
import { Checkbox } from '../../src/ui/checkbox';
import { EmptyState } from '../../src/ui/empty-state';
import { Field } from '../../src/ui/field';
import { Input } from '../../src/ui/input';
import { Pagination } from '../../src/ui/pagination';
import { Select } from '../../src/ui/select';
import { Skeleton } from '../../src/ui/skeleton';
import { Spinner } from '../../src/ui/spinner';
import { Switch } from '../../src/ui/switch';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../src/ui/table';
import { Tabs, TabsList, TabsTrigger } from '../../src/ui/tabs';

function Row({ children }: { children: ReactNode }) {
  return <div style={{ display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap' }}>{children}</div>;
}

/** Many primitives on one page: a quick visual check of both themes. */
function Overview() {
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 20, maxWidth: 720 }}>
      <Breadcrumb items={[{ label: 'Studio', href: '#' }, { label: 'Marketing', href: '#' }, { label: 'Support bot' }]} />
      <Tabs defaultValue="apps">
        <TabsList>
          <TabsTrigger value="apps">Apps</TabsTrigger>
          <TabsTrigger value="knowledge">Knowledge</TabsTrigger>
          <TabsTrigger value="tools">Tools</TabsTrigger>
        </TabsList>
      </Tabs>
      <Row>
        <Button variant="primary" icon={<Plus />}>Create app</Button>
        <Button>Secondary</Button>
        <Button variant="ghost">Ghost</Button>
        <Button variant="danger" icon={<Trash2 />}>Delete</Button>
        <Button variant="link">Link</Button>
        <Button variant="primary" loading>Saving</Button>
        <Button disabled>Disabled</Button>
      </Row>
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 16 }}>
        <Field label="Name" required help="Shown in the app list.">
          <Input placeholder="My assistant" />
        </Field>
        <Field label="Search">
          <Input prefix={<Search />} defaultValue="chatflow" />
        </Field>
        <Field label="Email" error="Enter a valid email address">
          <Input defaultValue="ada@" />
        </Field>
        <Field label="Mode">
          <Select defaultValue="workflow" options={[{ value: 'agent', label: 'Agent' }, { value: 'workflow', label: 'Workflow' }]} />
        </Field>
      </div>
      <Row>
        <Checkbox aria-label="a" />
        <Checkbox aria-label="b" defaultChecked />
        <Checkbox aria-label="c" defaultChecked="indeterminate" />
        <Checkbox aria-label="d" disabled />
        <Switch aria-label="e" />
        <Switch aria-label="f" defaultChecked />
        <Spinner />
        <Badge>Draft</Badge>
        <Badge variant="primary">Agent</Badge>
        <Badge variant="success" dot>Published</Badge>
        <Badge variant="warning">Quota</Badge>
        <Badge variant="danger">Failed</Badge>
        <Badge variant="info" appearance="outline">Beta</Badge>
      </Row>
      <Row>
        <Avatar name="Ada Lovelace" />
        <Avatar name="张三丰" />
        <Avatar name="Grace Hopper" />
        <Avatar name="Marketing" shape="square" />
        <Skeleton width={120} />
        <Skeleton circle height={32} />
      </Row>
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Name</TableHead>
            <TableHead>Role</TableHead>
            <TableHead>Status</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {[['Ada Lovelace', 'owner', 'Active'], ['Grace Hopper', 'admin', 'Active'], ['Alan Turing', 'member', 'Disabled']].map(([n, r, s]) => (
            <TableRow key={n}>
              <TableCell>{n}</TableCell>
              <TableCell>{r}</TableCell>
              <TableCell>
                <Badge variant={s === 'Active' ? 'success' : 'neutral'} dot>{s}</Badge>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Pagination page={3} pageSize={20} total={386} onPageChange={() => {}} onPageSizeChange={() => {}} />
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 16 }}>
        <Card>
          <CardHeader>
            <CardTitle>Token usage</CardTitle>
            <CardDescription>Last 7 days</CardDescription>
          </CardHeader>
          <CardContent>
            <span style={{ fontSize: 24, fontWeight: 600 }}>1,284,930</span>
          </CardContent>
        </Card>
        <Card>
          <EmptyState size="sm" title="No knowledge yet" description="Upload documents to build one." action={<Button size="sm" variant="primary">Upload</Button>} />
        </Card>
      </div>
    </div>
  );
}

const meta = { title: 'UI/Overview', component: Overview } satisfies Meta<typeof Overview>;

export default meta;
type Story = StoryObj<typeof meta>;

export const AllPrimitives: Story = {};
