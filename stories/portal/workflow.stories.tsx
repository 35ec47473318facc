import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { createMemoryPortalApi, demoPortalApps, type MemoryPortalApi } from '../../src/app/portal/memory-portal-api';
import { RunResult, RunSteps } from '../../src/app/portal/workflow/run-result';
import WorkflowPage from '../../src/app/portal/workflow/workflow-page';
import { PortalStory } from './portal-story';

const apps = demoPortalApps(6);
const invoice = apps[1];

const meta = {
  title: 'Portal/Workflow',
  loaders: [async () => ({ api: createMemoryPortalApi({ apps, chunkDelayMs: 20 }) })],
  render: (_a, { loaded }) => <PortalStory api={loaded.api as MemoryPortalApi} path="/portal/sessions/workflow/:appId" url={`/portal/sessions/workflow/${invoice.id}`} page={<WorkflowPage />} />,
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta;

export default meta;
type Story = StoryObj;

/** The form from the start node's inputs: required text checked, then a run with its steps, result and history. */
export const Run: Story = {
  play: async ({ canvas, loaded }) => {
    const api = loaded.api as MemoryPortalApi;
    const run = await canvas.findByRole('button', { name: 'Run' }, { timeout: 3000 });
    await userEvent.click(run);
    await expect(await canvas.findByText('This form field is required!')).toBeVisible();
    await userEvent.type(canvas.getByRole('textbox', { name: /Text/ }), 'Invoice 42, total 42.50 EUR');
    await userEvent.click(canvas.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(canvas.getAllByTestId('workflow-step').length).toBeGreaterThan(0));
    await waitFor(() => expect(canvas.getByTestId('workflow-result')).toHaveAttribute('data-status', 'succeeded'), { timeout: 5000 });
    await expect(canvas.getAllByTestId('workflow-step').map((s) => s.getAttribute('data-status'))).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const outputs = canvas.getAllByTestId('workflow-output');
    await expect(outputs[0].querySelector('strong')).toHaveTextContent('Done.');
    await expect(outputs[1]).toHaveTextContent('"currency": "EUR"');
    await expect(api.calls.find((c) => c.method === 'workflow')?.args[1]).toEqual({ inputs: { text: 'Invoice 42, total 42.50 EUR' } });
    await waitFor(() => expect(canvas.getAllByTestId('workflow-history-run')).toHaveLength(1));
  },
};

/** The result alone: steps, text as markdown, objects as JSON, a failed run's error. */
export const Result: Story = {
  render: () => (
    <div style={{ maxWidth: 640, display: 'grid', gap: 16 }}>
      <RunSteps
        steps={[
          { node_id: 'start', title: 'Start', kind: 'start', status: 'succeeded', elapsed_ms: 4 },
          { node_id: 'llm', title: 'Extract the fields', kind: 'llm', status: 'succeeded', elapsed_ms: 1830 },
          { node_id: 'code', title: 'Check the totals', kind: 'code', status: 'exception', elapsed_ms: 12 },
          { node_id: 'end', title: 'End', kind: 'end', status: 'running', elapsed_ms: 0 },
        ]}
      />
      <RunResult
        run={{
          runId: 'r1',
          status: 'succeeded',
          steps: [],
          inputs: {},
          outputs: { summary: '## Invoice 42\n\n- **Total**: 42.50 EUR\n- Due in `14` days', fields: { total: 42.5, currency: 'EUR', lines: [{ item: 'Tea', qty: 2 }] } },
          error: null,
          elapsed_ms: 1850,
        }}
      />
      <RunResult run={{ runId: 'r2', status: 'failed', steps: [], inputs: {}, outputs: {}, error: { code: 'NODE_FAILED', message: 'The model did not answer' }, elapsed_ms: 300 }} />
    </div>
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getAllByTestId('workflow-output')).toHaveLength(2);
    await expect(within(canvas.getAllByTestId('workflow-output')[0]).getByRole('heading', { name: 'Invoice 42' })).toBeVisible();
    await expect(canvas.getByRole('alert')).toBeVisible();
  },
};

export const LostAccess: Story = {
  loaders: [async () => ({ api: createMemoryPortalApi({ apps, lostAccess: [invoice.id] }) })],
  play: async ({ canvas }) => {
    await expect(await canvas.findByTestId('lost-access', {}, { timeout: 3000 })).toBeVisible();
  },
};
