import { z } from 'zod';
import { defineNodePlugin, NODE_WIDGETS, type FlowNode, type PluginIssue, type Port } from '../../src/plugin-sdk';
import { checkRunSettings, runSettingsShape, runSettingsTexts, withErrorOutputs, withFailBranch } from '../shared/run-settings';
import { commonTexts, mergeTexts } from '../shared/texts';
import { checkNames, checkSelectors, isValidName, NamedSelector, TypedName, validPorts } from '../shared/variables';
import { dify } from './dify';
import { firstLines } from '../shared/summary';

/** Widgets only this kind uses (rendered by its view.tsx). */
export const CODE_WIDGETS = {
  /** The timeout in seconds, with the server's cap shown under it. */
  sandboxTimeout: 'sandbox-timeout',
} as const;

/** What a new code node holds: a `main` taking the inputs by name and returning the outputs by name. */
export const DEFAULT_CODE = `// Inputs arrive as one object; return an object with one key per output.
function main({ arg1, arg2 }) {
  return {
    result: String(arg1 ?? '') + String(arg2 ?? ''),
  };
}
`;

const runSettings = runSettingsShape({ timeout: 30, maxTimeout: 300 });

const configSchema = z.object({
  /** The sandbox (QuickJS) runs JavaScript; the list leaves room for more. */
  language: z.enum(['javascript']).default('javascript').meta({ label: 'fields.language', optionLabels: 'languages', order: 0 }),
  inputs: z
    .array(NamedSelector)
    .max(50)
    .default([
      { name: 'arg1', selector: [] },
      { name: 'arg2', selector: [] },
    ])
    .meta({ label: 'fields.inputs', widget: NODE_WIDGETS.inputVariables, order: 1 }),
  code: z.string().max(100_000).default(DEFAULT_CODE).meta({ label: 'fields.code', widget: 'code', language: 'javascript', order: 2 }),
  outputs: z
    .array(TypedName)
    .max(50)
    .default([{ name: 'result', type: 'string' }])
    .meta({ label: 'fields.outputs', widget: NODE_WIDGETS.outputVariables, order: 3 }),
  ...runSettings,
  // The server cuts the time to its own cap (WEFT_SANDBOX_MAX_TIMEOUT_MS): the widget shows it.
  timeoutSeconds: runSettings.timeoutSeconds.meta({ ...runSettings.timeoutSeconds.meta(), widget: CODE_WIDGETS.sandboxTimeout }),
});
export type CodeConfig = z.infer<typeof configSchema>;

const outputs = (config: CodeConfig): Port[] => validPorts(config.outputs, (o) => ({ type: o.type }));

function validate(node: FlowNode<CodeConfig>): PluginIssue[] {
  const c = node.config;
  const out: PluginIssue[] = [...checkNames(c.inputs, 'inputs'), ...checkSelectors(c.inputs, 'inputs'), ...checkNames(c.outputs, 'outputs')];
  if (!c.code.trim()) out.push({ key: 'issues.codeEmpty', path: ['code'] });
  // The sandbox calls `main`; a script without one cannot run.
  else if (!/\bfunction\s+main\s*\(|\b(?:const|let|var)\s+main\s*=/.test(c.code)) out.push({ key: 'issues.mainMissing', path: ['code'] });
  if (!c.outputs.length) out.push({ key: 'issues.outputsEmpty', path: ['outputs'], severity: 'warning' });
  // An input the code never names is most likely a leftover or a typo.
  c.inputs.forEach((v, i) => {
    if (isValidName(v.name) && c.code.trim() && !new RegExp(`\\b${v.name}\\b`).test(c.code)) {
      out.push({ key: 'issues.inputUnused', params: { name: v.name }, path: ['inputs', i, 'name'], severity: 'warning' });
    }
  });
  out.push(...checkRunSettings(node, outputs(c)));
  return out;
}

/** Runs JavaScript in a sandbox over inputs taken from variables, returning typed outputs. */
export const codePlugin = defineNodePlugin({
  kind: 'code',
  dify,
  version: 1,
  category: 'transform',
  icon: { lucide: 'code-xml' },
  color: '#2563eb',
  i18n: mergeTexts(commonTexts, runSettingsTexts, {
    zh: {
      title: '代码执行',
      description: '在沙箱中运行 JavaScript 代码，处理输入并返回输出',
      fields: { language: '语言', inputs: '输入变量', code: '代码', outputs: '输出变量' },
      languages: { javascript: 'JavaScript' },
      issues: {
        codeEmpty: '代码为空',
        mainMissing: '代码中需要一个 main 函数',
        outputsEmpty: '没有声明输出变量',
        inputUnused: '代码中没有用到输入 {{name}}',
      },
    },
    en: {
      title: 'Code',
      description: 'Runs JavaScript in a sandbox over its inputs and returns outputs',
      fields: { language: 'Language', inputs: 'Input variables', code: 'Code', outputs: 'Output variables' },
      languages: { javascript: 'JavaScript' },
      issues: {
        codeEmpty: 'The code is empty',
        mainMissing: 'The code needs a main function',
        outputsEmpty: 'No output variables are declared',
        inputUnused: 'The code does not use the input {{name}}',
      },
    },
  }),
  configSchema,
  outputs: (config) => withErrorOutputs(config, outputs(config)),
  sourceHandles: (config) => withFailBranch(config, [{ id: 'source' }]),
  summary: (config) => firstLines(config.code),
  validate,
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default codePlugin;
