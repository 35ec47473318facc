import { z } from 'zod';
import { defineNodePlugin } from '../../src/plugin-sdk';
import { dify } from './dify';

export const NOTE_THEMES = ['yellow', 'blue', 'green', 'pink', 'violet', 'cyan'] as const;

const configSchema = z.object({
  text: z.string().max(10_000).default('').meta({ label: 'fields.text', widget: 'textarea', rows: 6 }),
  theme: z.enum(NOTE_THEMES).default('yellow').meta({ label: 'fields.theme', optionLabels: 'themes' }),
  showAuthor: z.boolean().default(false).meta({ label: 'fields.showAuthor' }),
  author: z.string().max(100).default('').meta({ label: 'fields.author', visibleWhen: { field: 'showAuthor', equals: true } }),
});
export type NoteConfig = z.infer<typeof configSchema>;

/**
 * A sticky note on the canvas: no ports, no edges, never run (its category `annotation` tells the
 * engine to skip it). Its size is the node's `width` and `height`.
 */
export const notePlugin = defineNodePlugin({
  kind: 'note',
  dify,
  version: 1,
  category: 'annotation',
  icon: { lucide: 'sticky-note' },
  i18n: {
    zh: {
      title: '注释',
      description: '在画布上写说明，不参与运行',
      fields: { text: '内容', theme: '颜色', showAuthor: '显示作者', author: '作者' },
      themes: { yellow: '黄', blue: '蓝', green: '绿', pink: '粉', violet: '紫', cyan: '青' },
    },
    en: {
      title: 'Note',
      description: 'A note on the canvas; it does not run',
      fields: { text: 'Text', theme: 'Colour', showAuthor: 'Show the author', author: 'Author' },
      themes: { yellow: 'Yellow', blue: 'Blue', green: 'Green', pink: 'Pink', violet: 'Violet', cyan: 'Cyan' },
    },
  },
  configSchema,
  sourceHandles: [],
  targetHandle: false,
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default notePlugin;
