import type { Meta, StoryObj } from '@storybook/react-vite';
import { inspectorStory } from '../../stories/canvas/inspector-story';

/** The loop node's inspector: its panel rendered from the config schema, with its widgets. */
const meta = {
  title: 'Plugins/loop',
  parameters: { layout: 'padded' },
  globals: { locale: 'en' },
} satisfies Meta;
export default meta;

export const Inspector: StoryObj = inspectorStory('loop');
