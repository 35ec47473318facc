import type { PluginI18n } from './types';

/** The i18n namespace of the SDK's own texts (common issues, value type names). */
export const SDK_NAMESPACE = 'node-sdk';

/** The i18n namespace of a plugin's texts. */
export const pluginNamespace = (kind: string) => `node-${kind}`;

/**
 * Texts of the checks the registry runs for every node (`NodeIssue.ns === SDK_NAMESPACE`) and of
 * value types. Registered with the plugins' texts by `registry.messages()`.
 */
export const sdkMessages = {
  zh: {
    issues: {
      kindUnknown: '未知的节点类型 {{kind}}',
      versionTooNew: '该节点由更新版本的插件创建（版本 {{version}}，当前 {{current}}）',
      migrationFailed: '无法把节点配置从版本 {{from}} 升级',
      modeNotAllowed: '该节点不能用于当前应用类型',
      placementNotAllowed: '该节点不能放在这里',
      singleton: '同一层级只能有一个该节点',
      configInvalid: '配置项 {{field}} 不正确：{{message}}',
      validateFailed: '节点校验出错：{{message}}',
      referenceMissing: '引用的变量 {{reference}} 不存在',
      referenceSelf: '节点不能引用自己的输出 {{reference}}',
      referenceNotUpstream: '引用的变量 {{reference}} 不在该节点之前',
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
    issues: {
      kindUnknown: 'Unknown node kind {{kind}}',
      versionTooNew: 'This node was made by a newer plugin (version {{version}}, this one is {{current}})',
      migrationFailed: 'The node configuration could not be upgraded from version {{from}}',
      modeNotAllowed: 'This node cannot be used in this kind of app',
      placementNotAllowed: 'This node cannot be placed here',
      singleton: 'Only one such node is allowed at this level',
      configInvalid: 'The setting {{field}} is not valid: {{message}}',
      validateFailed: 'Checking this node failed: {{message}}',
      referenceMissing: 'The referenced variable {{reference}} does not exist',
      referenceSelf: 'A node cannot use its own output {{reference}}',
      referenceNotUpstream: 'The referenced variable {{reference}} does not come before this node',
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
