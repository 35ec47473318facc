import { defineNodeExecutor } from '../../../src/plugin-sdk';
import { textStats, textStatsPlugin } from './manifest';

/** Measures the text the node's source names (an absent value counts as empty text). */
export const textStatsExecutor = defineNodeExecutor(textStatsPlugin, {
  execute({ config, variables }) {
    const value = variables.get(config.source);
    const text = typeof value === 'string' ? value : value == null ? '' : JSON.stringify(value);
    return { outputs: textStats(text, config) };
  },
});

export default textStatsExecutor;
