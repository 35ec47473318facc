import { z } from 'zod';
import { defineNodePlugin } from '../../src/plugin-sdk';

/** Where each round of an iteration begins: created with the iteration, one per iteration, never deleted alone. */
export const iterationStartPlugin = defineNodePlugin({
  kind: 'iteration-start',
  dify: { types: ['iteration-start'], import: () => ({}) },
  version: 1,
  category: 'container',
  icon: { lucide: 'circle-play' },
  i18n: {
    zh: { title: '迭代开始', description: '每一轮迭代从这里开始' },
    en: { title: 'Iteration start', description: 'Each round of the iteration starts here' },
  },
  configSchema: z.object({}),
  targetHandle: false,
  singleton: true,
  deletable: false,
  palette: false,
  parents: ['iteration'],
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default iterationStartPlugin;
