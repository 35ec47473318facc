import { z } from 'zod';
import { defineNodePlugin, MaybeSelector, Template, VariableName, type Port } from './index';

/**
 * Tiny plugins for the SDK's own tests (not product node kinds): enough of start/end/answer to
 * build flows, a transform with a migration (`echo`), a branching node (`branch`) and a container
 * with its start (`repeat`, `repeat-start`).
 */

const texts = (zhTitle: string, enTitle: string, extra: { zh?: Record<string, unknown>; en?: Record<string, unknown> } = {}) => ({
  zh: { title: zhTitle, description: `${zhTitle}节点`, ...(extra.zh as object) },
  en: { title: enTitle, description: `A ${enTitle.toLowerCase()} node`, ...(extra.en as object) },
});

export const start = defineNodePlugin({
  kind: 'start',
  version: 1,
  category: 'basic',
  icon: { lucide: 'house' },
  i18n: texts('开始', 'Start'),
  configSchema: z.object({
    variables: z.array(z.object({ name: VariableName, type: z.enum(['string', 'number']) })).default([]),
  }),
  outputs: (config) => config.variables.map((v): Port => ({ name: v.name, type: v.type })),
  targetHandle: false,
  singleton: true,
  deletable: false,
  parents: ['root'],
});

export const end = defineNodePlugin({
  kind: 'end',
  version: 1,
  category: 'basic',
  icon: { lucide: 'flag' },
  i18n: texts('结束', 'End'),
  configSchema: z.object({ outputs: z.array(z.object({ name: VariableName, value: MaybeSelector })).default([]) }),
  sourceHandles: [],
  modes: ['workflow'],
});

export const answer = defineNodePlugin({
  kind: 'answer',
  version: 1,
  category: 'basic',
  icon: { lucide: 'message-square' },
  i18n: texts('回复', 'Answer'),
  configSchema: z.object({ answer: Template.default('') }),
  modes: ['chatflow', 'agent', 'agent_team'],
});

export const agent = defineNodePlugin({
  kind: 'agent',
  version: 1,
  category: 'model',
  icon: { lucide: 'bot' },
  i18n: texts('智能体', 'Agent'),
  configSchema: z.object({ instructions: Template.default('') }),
  outputs: [{ name: 'text', type: 'string' }],
  modes: ['agent', 'agent_team'],
});

/** Version 2; version 1 called `upper` `uppercase`. */
export const echo = defineNodePlugin({
  kind: 'echo',
  version: 2,
  category: 'transform',
  icon: { svg: '<svg viewBox="0 0 16 16"><circle cx="8" cy="8" r="6"/></svg>' },
  i18n: texts('回声', 'Echo', { zh: { issues: { textEmpty: '请填写文本' } }, en: { issues: { textEmpty: 'Write the text' } } }),
  configSchema: z.object({
    text: Template.default(''),
    source: MaybeSelector.default([]),
    upper: z.boolean().default(false),
    tags: z.array(z.string()).default([]),
  }),
  outputs: (config) => [
    { name: 'text', type: 'string' },
    { name: 'meta', type: 'object', children: [{ name: 'length', type: 'number' }] },
    ...(config.upper ? [{ name: 'upper', type: 'boolean' } as const] : []),
  ],
  validate: (node) => (node.config.text.trim() ? [] : [{ key: 'issues.textEmpty', path: ['text'], severity: 'warning' }]),
  migrations: [
    {
      from: 1,
      up: ({ uppercase, ...rest }) => ({ ...rest, upper: Boolean(uppercase) }),
      sample: { text: 'hi {{#start.name#}}', uppercase: true },
    },
  ],
});

/** If-else in miniature: one handle per case, then `else`. */
export const branch = defineNodePlugin({
  kind: 'branch',
  version: 1,
  category: 'logic',
  icon: { lucide: 'git-branch' },
  i18n: texts('分支', 'Branch', { zh: { else: '否则' }, en: { else: 'Else' } }),
  configSchema: z.object({
    cases: z
      .array(z.object({ id: z.string().regex(/^[A-Za-z0-9_-]+$/), when: MaybeSelector }))
      .default([{ id: 'case1', when: [] }]),
  }),
  sourceHandles: (config) => [...config.cases.map((c) => ({ id: c.id, label: c.id })), { id: 'else', labelKey: 'else' }],
});

export const repeat = defineNodePlugin({
  kind: 'repeat',
  version: 1,
  category: 'container',
  icon: { lucide: 'repeat' },
  i18n: texts('循环', 'Repeat'),
  configSchema: z.object({ items: MaybeSelector.default([]), output: MaybeSelector.default([]) }),
  innerOutputs: (config, ctx) => {
    const t = ctx.typeOf(config.items);
    return [
      { name: 'item', type: t?.startsWith('array[') ? (t.slice(6, -1) as 'string') : 'string' },
      { name: 'index', type: 'number' },
    ];
  },
  outputs: [{ name: 'output', type: 'array[string]' }],
  container: { startKind: 'repeat-start', breakCondition: false, defaultSize: { width: 600, height: 300 } },
});

export const repeatStart = defineNodePlugin({
  kind: 'repeat-start',
  version: 1,
  category: 'container',
  icon: { lucide: 'play' },
  i18n: texts('循环开始', 'Repeat start'),
  configSchema: z.object({}),
  targetHandle: false,
  singleton: true,
  deletable: false,
  palette: false,
  parents: ['repeat'],
});

export const samplePlugins = [start, end, answer, agent, echo, branch, repeat, repeatStart];
