import type { Meta, StoryObj } from '@storybook/react-vite';
import { inspectorStory } from '../../stories/canvas/inspector-story';

/** The list-operator node's inspector: its panel rendered from the config schema. */
const meta = {
  title: 'Plugins/list-operator',
  parameters: { layout: 'padded' },
  globals: { locale: 'en' },
} satisfies Meta;
export default meta;

export const Inspector: StoryObj = inspectorStory('list-operator');
