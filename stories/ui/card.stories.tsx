import type { Meta, StoryObj } from '@storybook/react-vite';
import { Bot } from 'lucide-react';
import { Avatar } from '../../src/ui/avatar';
import { Badge } from '../../src/ui/badge';
import { Button } from '../../src/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../src/ui/card';

const meta = { title: 'UI/Card', component: Card } satisfies Meta<typeof Card>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  render: () => (
    <Card style={{ width: 360 }}>
      <CardHeader>
        <CardTitle>Token usage</CardTitle>
        <CardDescription>Last 7 days, all apps</CardDescription>
      </CardHeader>
      <CardContent>
        <span style={{ fontSize: 24, fontWeight: 600 }}>1,284,930</span>
      </CardContent>
      <CardFooter>
        <Button size="sm">Details</Button>
      </CardFooter>
    </Card>
  ),
};

export const AppCard: Story = {
  render: () => (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(2, 280px)', gap: 16 }}>
      {['Customer support bot', '合同审查工作流'].map((name, i) => (
        <Card key={name} interactive>
          <CardContent style={{ display: 'flex', gap: 12 }}>
            <Avatar name={name} shape="square" size="lg" />
            <div style={{ display: 'flex', flexDirection: 'column', gap: 4, minWidth: 0 }}>
              <a href="#app" style={{ fontWeight: 600, color: 'var(--color-text)' }}>{name}</a>
              <span style={{ display: 'flex', gap: 6 }}>
                <Badge variant={i ? 'info' : 'primary'}>
                  <Bot /> {i ? 'workflow' : 'agent'}
                </Badge>
                <Badge variant="success" dot>Published</Badge>
              </span>
            </div>
          </CardContent>
        </Card>
      ))}
    </div>
  ),
};
