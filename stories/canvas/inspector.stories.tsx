import type { Meta, StoryObj } from '@storybook/react-vite';
import { inspectorStory } from './inspector-story';

/** The node inspector for each built-in node kind, with its schema-rendered panel and widgets. */
const meta = {
  title: 'Canvas/NodeInspector',
  parameters: { layout: 'padded' },
  globals: { locale: 'en' },
} satisfies Meta;
export default meta;

export const Start: StoryObj = inspectorStory('start');
export const End: StoryObj = inspectorStory('end');
export const Answer: StoryObj = inspectorStory('answer');
export const Llm: StoryObj = inspectorStory('llm');
export const KnowledgeRetrieval: StoryObj = inspectorStory('knowledge-retrieval');
export const Tool: StoryObj = inspectorStory('tool');
export const Mcp: StoryObj = inspectorStory('mcp');
export const Code: StoryObj = inspectorStory('code');
export const IfElse: StoryObj = inspectorStory('if-else');
export const QuestionClassifier: StoryObj = inspectorStory('question-classifier');
export const ParameterExtractor: StoryObj = inspectorStory('parameter-extractor');
export const TemplateTransform: StoryObj = inspectorStory('template-transform');
export const HttpRequest: StoryObj = inspectorStory('http-request');
export const VariableAggregator: StoryObj = inspectorStory('variable-aggregator');
export const VariableAssigner: StoryObj = inspectorStory('variable-assigner');
export const Iteration: StoryObj = inspectorStory('iteration');
export const IterationStart: StoryObj = inspectorStory('iteration-start');
export const Loop: StoryObj = inspectorStory('loop');
export const LoopStart: StoryObj = inspectorStory('loop-start');
export const Agent: StoryObj = inspectorStory('agent');
export const Note: StoryObj = inspectorStory('note');
