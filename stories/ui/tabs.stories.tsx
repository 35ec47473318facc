import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect } from 'storybook/test';
import { NavTab, NavTabs, Tabs, TabsContent, TabsList, TabsTrigger } from '../../src/ui/tabs';

const meta = { title: 'UI/Tabs', component: Tabs } satisfies Meta<typeof Tabs>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Line: Story = {
  render: () => (
    <Tabs defaultValue="general" style={{ width: 480 }}>
      <TabsList>
        <TabsTrigger value="general">General</TabsTrigger>
        <TabsTrigger value="members">Members</TabsTrigger>
        <TabsTrigger value="billing" disabled>
          Billing
        </TabsTrigger>
      </TabsList>
      <TabsContent value="general">General settings</TabsContent>
      <TabsContent value="members">Member list</TabsContent>
    </Tabs>
  ),
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(canvas.getByRole('tab', { name: 'Members' }));
    await expect(canvas.getByRole('tab', { name: 'Members' })).toHaveAttribute('aria-selected', 'true');
    await expect(canvas.getByRole('tabpanel')).toHaveTextContent('Member list');
    await userEvent.keyboard('{ArrowLeft}');
    await expect(canvas.getByRole('tab', { name: 'General' })).toHaveFocus();
  },
};

export const Segmented: Story = {
  render: () => (
    <Tabs defaultValue="all">
      <TabsList variant="segmented">
        <TabsTrigger value="all">All</TabsTrigger>
        <TabsTrigger value="agent">Agent</TabsTrigger>
        <TabsTrigger value="workflow">Workflow</TabsTrigger>
      </TabsList>
    </Tabs>
  ),
};

function RouteTabs() {
  const [path, setPath] = useState('flow');
  const items = [
    { key: 'flow', label: 'Orchestrate' },
    { key: 'logs', label: 'Logs' },
    { key: 'monitor', label: 'Monitor' },
  ];
  return (
    <NavTabs aria-label="App sections">
      {items.map((i) => (
        <NavTab
          key={i.key}
          href={`#${i.key}`}
          active={path === i.key}
          onClick={(e) => {
            e.preventDefault();
            setPath(i.key);
          }}
        >
          {i.label}
        </NavTab>
      ))}
    </NavTabs>
  );
}

export const Nav: Story = {
  render: () => <RouteTabs />,
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(canvas.getByRole('link', { name: 'Logs' }));
    await expect(canvas.getByRole('link', { name: 'Logs' })).toHaveAttribute('aria-current', 'page');
    await expect(canvas.getByRole('link', { name: 'Orchestrate' })).not.toHaveAttribute('aria-current');
  },
};
