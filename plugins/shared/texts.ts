import type { PluginI18n, PluginMessages } from '../../src/plugin-sdk';

/**
 * Texts shared by the built-in plugins. A plugin's texts live in its own i18n namespace
 * (`node-<kind>`), and the inspector looks field labels up there, so the shared fields' labels are
 * merged into each plugin that uses them (`mergeTexts`) rather than kept in a namespace of their own.
 */

function mergeMessages(into: PluginMessages, from: PluginMessages): PluginMessages {
  const out: PluginMessages = { ...into };
  for (const [k, v] of Object.entries(from)) {
    const cur = out[k];
    out[k] = typeof v === 'object' && typeof cur === 'object' ? mergeMessages(cur, v) : v;
  }
  return out;
}

/**
 * Deep-merges texts, later parts winning.
 * @example mergeTexts(modelTexts, { zh: { title: '大模型' }, en: { title: 'LLM' } })
 */
export function mergeTexts(...parts: PluginI18n[]): PluginI18n {
  return parts.reduce<PluginI18n>((acc, p) => ({ zh: mergeMessages(acc.zh, p.zh), en: mergeMessages(acc.en, p.en) }), { zh: {}, en: {} });
}

/** Texts every built-in plugin's checks may use (names, lists). */
export const commonTexts = {
  zh: {
    fields: {
      name: '变量名',
      label: '显示名',
      type: '类型',
      selector: '变量',
      description: '描述',
      required: '必填',
      value: '值',
    },
    issues: {
      nameEmpty: '第 {{index}} 项缺少变量名',
      nameDuplicate: '变量名 {{name}} 重复',
      nameInvalid: '变量名 {{name}} 只能包含字母、数字和下划线，且不能以数字开头',
      selectorEmpty: '{{name}} 尚未选择变量',
      querySelectorEmpty: '请选择查询变量',
    },
    valueTypes: {
      string: '字符串',
      number: '数字',
      boolean: '布尔',
      object: '对象',
      file: '文件',
      'array[string]': '字符串数组',
      'array[number]': '数字数组',
      'array[boolean]': '布尔数组',
      'array[object]': '对象数组',
      'array[file]': '文件数组',
    },
  },
  en: {
    fields: {
      name: 'Variable name',
      label: 'Display name',
      type: 'Type',
      selector: 'Variable',
      description: 'Description',
      required: 'Required',
      value: 'Value',
    },
    issues: {
      nameEmpty: 'Item {{index}} has no variable name',
      nameDuplicate: 'The variable name {{name}} is used twice',
      nameInvalid: 'The variable name {{name}} may hold only letters, digits and _, not starting with a digit',
      selectorEmpty: 'No variable chosen for {{name}}',
      querySelectorEmpty: 'Choose the query variable',
    },
    valueTypes: {
      string: 'String',
      number: 'Number',
      boolean: 'Boolean',
      object: 'Object',
      file: 'File',
      'array[string]': 'Array of strings',
      'array[number]': 'Array of numbers',
      'array[boolean]': 'Array of booleans',
      'array[object]': 'Array of objects',
      'array[file]': 'Array of files',
    },
  },
} satisfies PluginI18n;
