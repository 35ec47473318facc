import { z } from 'zod';
import { defineNodePlugin } from '../../src/plugin-sdk';

/** Where each round of a loop begins: created with the loop, one per loop, never deleted alone. */
export const loopStartPlugin = defineNodePlugin({
  kind: 'loop-start',
  dify: { types: ['loop-start'], import: () => ({}) },
  version: 1,
  category: 'container',
  icon: { lucide: 'circle-play' },
  i18n: {
    zh: { title: '循环开始', description: '每一轮循环从这里开始' },
    en: { title: 'Loop start', description: 'Each round of the loop starts here' },
  },
  configSchema: z.object({}),
  targetHandle: false,
  singleton: true,
  deletable: false,
  palette: false,
  parents: ['loop'],
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default loopStartPlugin;
