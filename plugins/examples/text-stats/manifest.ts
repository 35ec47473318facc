import { z } from 'zod';
import { defineNodePlugin, isSelector, MaybeSelector, NODE_WIDGETS } from '../../../src/plugin-sdk';

/**
 * An example node plugin, outside the built-in list: counts the characters, words and lines of a
 * text. It shows a plugin author's whole path (see plugins/README.md): a config schema with UI
 * metadata, outputs computed from the config, a check with texts in zh and en, and a migration
 * from an older version. Register it by extending a registry:
 * `createNodeRegistry(builtinKinds).extend([textStatsPlugin])`.
 */
const configSchema = z.object({
  /** The text to measure. */
  source: MaybeSelector.default([]).meta({ label: 'fields.source', widget: NODE_WIDGETS.variable }),
  /** Whether words are counted too (some scripts have no spaces, so it can be turned off). */
  countWords: z.boolean().default(true).meta({ label: 'fields.countWords' }),
  /** Leading and trailing blanks are left out of the counts. */
  trim: z.boolean().default(true).meta({ label: 'fields.trim' }),
});
export type TextStatsConfig = z.infer<typeof configSchema>;

export const textStatsPlugin = defineNodePlugin({
  kind: 'text-stats',
  version: 2,
  category: 'transform',
  icon: { lucide: 'whole-word' },
  i18n: {
    zh: {
      title: '文本统计',
      description: '统计文本的字符数、词数和行数',
      fields: { source: '文本变量', countWords: '统计词数', trim: '忽略首尾空白' },
      outputs: { characters: '字符数', words: '词数', lines: '行数' },
      issues: { sourceMissing: '请选择要统计的文本变量' },
    },
    en: {
      title: 'Text statistics',
      description: 'Counts the characters, words and lines of a text',
      fields: { source: 'Text variable', countWords: 'Count words', trim: 'Ignore leading and trailing blanks' },
      outputs: { characters: 'Characters', words: 'Words', lines: 'Lines' },
      issues: { sourceMissing: 'Choose the text variable to measure' },
    },
  },
  configSchema,
  outputs: (config) => [
    { name: 'characters', type: 'number', labelKey: 'outputs.characters' },
    ...(config.countWords ? [{ name: 'words', type: 'number' as const, labelKey: 'outputs.words' }] : []),
    { name: 'lines', type: 'number', labelKey: 'outputs.lines' },
  ],
  validate: (node) => (isSelector(node.config.source) ? [] : [{ key: 'issues.sourceMissing', path: ['source'] }]),
  migrations: [
    // Version 1 called the source `input` and always counted words.
    { from: 1, up: ({ input, ...rest }) => ({ ...rest, source: input ?? [], countWords: true }), sample: { input: ['start', 'text'] } },
  ],
});

/** What the node computes (the executor's core, kept pure so it is easy to test). */
export function textStats(text: string, config: Pick<TextStatsConfig, 'countWords' | 'trim'>) {
  const t = config.trim ? text.trim() : text;
  return {
    characters: [...t].length,
    ...(config.countWords ? { words: t.split(/\s+/).filter(Boolean).length } : {}),
    lines: t ? t.split(/\r\n|\r|\n/).length : 0,
  };
}

// The kind as a package's folder exports it (scripts/plugin-pack.ts bundles the default export).
export default textStatsPlugin;
