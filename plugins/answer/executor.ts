import { defineNodeExecutor } from '../../src/plugin-sdk';
import { answerPlugin } from './manifest';

/**
 * Renders the reply. The engine streams the same template as the run's answer (`answerTemplate`):
 * literal text at once, an llm's text chunk by chunk as it arrives.
 */
export const answerExecutor = defineNodeExecutor(answerPlugin, {
  answerTemplate: (config) => config.answer,
  streamOutput: 'answer',
  execute: ({ config, variables }) => ({ outputs: { answer: variables.render(config.answer) } }),
});

export default answerExecutor;
