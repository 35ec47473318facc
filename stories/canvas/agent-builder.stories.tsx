import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, within } from 'storybook/test';
import { zeroCodeNodes } from '../../schemas/agent-builder';
import { createFlowStore, FlowStoreProvider } from '../../src/canvas';
import { ModelListContext, WorkspaceResourcesContext } from '../../src/canvas/widgets';
import { registry, sampleModels, sampleResources } from '../../src/canvas/widgets/test-flow.fixture';
import { ModelMissing } from '../../src/app/screens/app/builder/builder-ai';
import { FeaturesFields, NodeFields, Section } from '../../src/app/screens/app/builder/builder-sections';
import { withRouter } from '../shell/with-router';

/**
 * The agent builder's sections (src/app/screens/app/builder): each a part of the new agent app's
 * flow (start → agent → answer) drawn with the canvas inspector's forms and widgets; sample models
 * and workspace resources stand in for the app guard's and the project space's.
 */

type SectionName = 'instructions' | 'model' | 'variables' | 'knowledge' | 'tools' | 'memory' | 'vision' | 'features';

const FIELDS: Record<Exclude<SectionName, 'variables' | 'features'>, string[]> = {
  instructions: ['instructions'],
  model: ['model', 'maxIterations'],
  knowledge: ['knowledgeIds', 'knowledgeTopK', 'knowledgeMinScore'],
  tools: ['tools'],
  memory: ['memoryEnabled', 'memoryWindowEnabled', 'memoryWindow'],
  vision: ['visionEnabled', 'visionFiles', 'visionDetail'],
};

function BuilderSection({ section }: { section: SectionName }) {
  const [store] = useState(() => createFlowStore({ registry, mode: 'agent' }));
  const nodes = zeroCodeNodes(store.getState().document)!;
  return (
    <FlowStoreProvider store={store}>
      <ModelListContext.Provider value={{ models: sampleModels }}>
        <WorkspaceResourcesContext.Provider value={sampleResources}>
          <div style={{ maxWidth: 640 }}>
            <Section id={section} title={section}>
              {section === 'features' ? (
                <FeaturesFields />
              ) : section === 'variables' ? (
                <NodeFields nodeId={nodes.start} include={['variables']} />
              ) : (
                <NodeFields nodeId={nodes.agent} include={FIELDS[section]} />
              )}
            </Section>
            <pre data-testid="document" style={{ fontSize: 11 }}>
              {JSON.stringify(store.toDocument().features ?? null)}
            </pre>
          </div>
        </WorkspaceResourcesContext.Provider>
      </ModelListContext.Provider>
    </FlowStoreProvider>
  );
}

const meta = {
  title: 'Canvas/Agent builder',
  render: (args) => <BuilderSection {...args} />,
  globals: { locale: 'en' },
} satisfies Meta<{ section: SectionName }>;
export default meta;
type Story = StoryObj<{ section: SectionName }>;

const hasFields = (names: string[]): Story['play'] => async ({ canvasElement }) => {
  for (const name of names) await expect(canvasElement.querySelector(`[data-field="${name}"]`)).not.toBeNull();
};

/** The instructions: the template editor with the flow's variables ({ or / opens them). */
export const Instructions: Story = { args: { section: 'instructions' }, play: hasFields(['instructions']) };
/** The model and its settings (temperature, top-p, penalties −2…2, max tokens, at most 4 stop sequences). */
export const ModelAndSettings: Story = { args: { section: 'model' }, play: hasFields(['model', 'maxIterations']) };
/** The start form's fields: what users fill in before chatting. */
export const UserInput: Story = { args: { section: 'variables' }, play: hasFields(['variables']) };
/** Knowledge bases; the retrieval settings show once one is chosen. */
export const Knowledge: Story = {
  args: { section: 'knowledge' },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('[data-field="knowledgeTopK"]')).toBeNull();
    const c = within(canvasElement);
    await userEvent.click((await c.findAllByRole('checkbox'))[0]);
    await expect(canvasElement.querySelector('[data-field="knowledgeTopK"]')).not.toBeNull();
  },
};
/** Tools: custom, workflow and built-in functions and MCP servers' tools, as the agent node's inspector offers them. */
export const Tools: Story = { args: { section: 'tools' }, play: hasFields(['tools']) };
/** Memory: on by default in a conversation, with its window. */
export const Memory: Story = { args: { section: 'memory' }, play: hasFields(['memoryEnabled', 'memoryWindow']) };
/** Images: off by default; on, the user's files go to the model at the chosen detail (low: 512×512). */
export const Vision: Story = { args: { section: 'vision' }, play: hasFields(['visionEnabled']) };
/** Opening statement, suggested questions, follow-ups, file and image upload, citations and feedback: written as they change. */
export const Features: Story = {
  args: { section: 'features' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    const opening = canvasElement.querySelector<HTMLTextAreaElement>('[data-field="opening_statement"] textarea')!;
    await userEvent.type(opening, 'Hello!');
    await expect(await c.findByTestId('document')).toBeInTheDocument();
  },
};

/** With no default model, the AI helpers say so before any click (admins get the way to System › Models). */
export const NoModel: StoryObj = {
  render: () => <ModelMissing visible />,
  decorators: [withRouter],
  play: async ({ canvas }) => {
    await expect(await canvas.findByTestId('builder-no-model')).toBeVisible();
  },
};
