import type { Meta, StoryObj } from '@storybook/react-vite';
import { inspectorStory } from '../../stories/canvas/inspector-story';

/** The iteration node's inspector: its panel rendered from the config schema, with its widgets. */
const meta = {
  title: 'Plugins/iteration',
  parameters: { layout: 'padded' },
  globals: { locale: 'en' },
} satisfies Meta;
export default meta;

export const Inspector: StoryObj = inspectorStory('iteration');
