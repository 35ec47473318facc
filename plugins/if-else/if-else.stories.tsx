import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { inspectorStory } from '../../stories/canvas/inspector-story';

/** The if-else node's inspector: its panel rendered from the config schema, with its widgets. */
const meta = {
  title: 'Plugins/if-else',
  parameters: { layout: 'padded' },
  globals: { locale: 'en' },
} satisfies Meta;
export default meta;

export const Inspector: StoryObj = inspectorStory('if-else');

/** A condition on the files of a list (Dify's sub-conditions): "contains a file where type is in image or extension is .pdf". */
export const FileTests: StoryObj = {
  ...inspectorStory('if-else', (store, nodeId) =>
    store.updateConfig(nodeId, ['cases', 0, 'conditions'], [
      {
        id: 'c_1',
        selector: ['sys', 'files'],
        operator: 'contains',
        value: '',
        fileConditions: {
          logicalOperator: 'or',
          conditions: [
            { key: 'type', operator: 'in', value: 'image' },
            { key: 'extension', operator: 'is', value: '.pdf' },
          ],
        },
      },
    ]),
  ),
  name: 'if-else: file tests',
  play: async ({ canvas }) => {
    const tests = await canvas.findByRole('group', { name: 'File tests of condition 1' });
    await expect(tests).toBeVisible();
    await expect(within(tests).getAllByRole('combobox', { name: /^File property/ })).toHaveLength(2);
    await expect(within(tests).getByRole('textbox', { name: 'Value of file test 2' })).toHaveTextContent('.pdf');
  },
};
