import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { buildTrace, TraceView } from '../../src/canvas/debug';
import { chatRunEvents, eventScript, iterationRunEvents } from '../../src/canvas/debug/events.fixture';

/** The run trace on its own: a chat run, a workflow with an iteration, and a run with failures. */

function failedEvents() {
  const e = eventScript('run-f');
  return [
    e.created(),
    e.runStarted('workflow'),
    e.started('start', 'start'),
    e.finished('start', 'start', {}),
    e.started('http', 'http-request', [], { url: 'https://example.invalid' }),
    e.finished('http', 'http-request', { status: 0 }, { exception: true, handle: 'fail-branch' }),
    e.started('llm', 'llm'),
    e.failed('llm', 'llm', 'The model provider answered 429: rate limited'),
    e.runFailed('failed', 'The model provider answered 429: rate limited'),
  ];
}

/** Two code nodes: one ran after waiting for a sandbox, the other still waits with two jobs ahead. */
function waitingEvents() {
  const e = eventScript('run-q');
  return [
    e.created(),
    e.runStarted('workflow'),
    e.started('start', 'start'),
    e.finished('start', 'start', {}),
    e.started('code', 'code'),
    e.waiting('code', 'code', 0),
    e.waiting('code', 'code', null, 2400),
    e.finished('code', 'code', { result: 42 }),
    e.started('code2', 'code'),
    e.waiting('code2', 'code', 2),
  ];
}

const traces = {
  chat: () => buildTrace(chatRunEvents()),
  iteration: () => buildTrace(iterationRunEvents()),
  failed: () => buildTrace(failedEvents()),
  waiting: () => buildTrace(waitingEvents()),
};

function TraceStory({ which }: { which: keyof typeof traces }) {
  return (
    <div style={{ width: 420, padding: 16 }}>
      <TraceView trace={traces[which]()} />
    </div>
  );
}

const meta = {
  title: 'Canvas/Run trace',
  component: TraceStory,
  globals: { locale: 'en' },
} satisfies Meta<typeof TraceStory>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Chat: Story = { args: { which: 'chat' } };

/** Open the iteration, then its second round. */
export const WithIteration: Story = {
  args: { which: 'iteration' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.click(within(c.getByTestId('trace-item-iteration')).getByText('ITERATION'));
    await userEvent.click(c.getByText('Round 2'));
    await expect(c.getAllByTestId('trace-item-code')).toHaveLength(2);
  },
};

export const Failures: Story = { args: { which: 'failed' } };

/** A code node queued for a free sandbox, and one that waited before it ran. */
export const WaitingForSandbox: Story = {
  args: { which: 'waiting' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await expect(within(c.getByTestId('trace-item-code2')).getByTestId('trace-waiting')).toHaveTextContent('Waiting for a free sandbox… (2 ahead)');
    await userEvent.click(within(c.getByTestId('trace-item-code')).getByText('CODE'));
    await expect(c.getByTestId('trace-waited')).toHaveTextContent('Waited 2.40 s for a free sandbox');
  },
};
