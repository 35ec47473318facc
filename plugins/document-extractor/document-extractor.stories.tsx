import type { Meta, StoryObj } from '@storybook/react-vite';
import { inspectorStory } from '../../stories/canvas/inspector-story';

/** The document-extractor node's inspector: its panel rendered from the config schema. */
const meta = {
  title: 'Plugins/document-extractor',
  parameters: { layout: 'padded' },
  globals: { locale: 'en' },
} satisfies Meta;
export default meta;

export const Inspector: StoryObj = inspectorStory('document-extractor');
