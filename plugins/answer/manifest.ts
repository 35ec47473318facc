import { z } from 'zod';
import { defineNodePlugin, NODE_WIDGETS, Template } from '../../src/plugin-sdk';
import { text } from '../../src/plugin-sdk/dify';
import { firstLines } from '../shared/summary';

const configSchema = z.object({
  answer: Template.default('').meta({ label: 'fields.answer', placeholder: 'fields.answerPlaceholder', widget: NODE_WIDGETS.template, rows: 6 }),
});
export type AnswerConfig = z.infer<typeof configSchema>;

/** Streams a reply to the user in a conversation (several answer nodes may reply in turn). */
export const answerPlugin = defineNodePlugin({
  kind: 'answer',
  dify: { types: ['answer'], import: (data, ctx) => ({ answer: text(data.answer, ctx) }) },
  version: 1,
  category: 'basic',
  icon: { lucide: 'message-square-reply' },
  color: 'var(--color-warning, #f59e0b)',
  i18n: {
    zh: {
      title: '直接回复',
      description: '在对话中回复用户，可引用前面节点的输出',
      fields: { answer: '回复内容', answerPlaceholder: '输入回复，键入 { 插入变量' },
      issues: { answerEmpty: '回复内容为空' },
    },
    en: {
      title: 'Answer',
      description: 'Replies to the user in the conversation, using earlier outputs',
      fields: { answer: 'Reply', answerPlaceholder: 'Write the reply; type { to insert a variable' },
      issues: { answerEmpty: 'The reply is empty' },
    },
  },
  configSchema,
  modes: ['chatflow', 'agent', 'agent_team'],
  summary: (config) => firstLines(config.answer, 1).map((r) => ({ text: r.text })),
  validate: (node) => (node.config.answer.trim() ? [] : [{ key: 'issues.answerEmpty', path: ['answer'] }]),
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default answerPlugin;
