import { z } from 'zod';
import { defineNodePlugin, NODE_WIDGETS, type FlowNode, type PluginIssue, type Port } from '../../src/plugin-sdk';
import { checkRunSettings, runSettingsShape, runSettingsTexts, withErrorOutputs, withFailBranch } from '../shared/run-settings';
import { commonTexts, mergeTexts } from '../shared/texts';
import { checkNames, checkSelectors, isValidName, NamedSelector, TypedName, validPorts } from '../shared/variables';
import { dify } from './dify';
import { CODE_LANGUAGES, type CodeLanguage } from './languages';

export { CODE_LANGUAGES, type CodeLanguage } from './languages';
import { firstLines } from '../shared/summary';

/** Widgets only this kind uses (rendered by its view.tsx). */
export const CODE_WIDGETS = {
  /** The timeout in seconds, with the server's cap shown under it. */
  sandboxTimeout: 'sandbox-timeout',
  /** The language select: switching it swaps an untouched template for the other language's. */
  codeLanguage: 'code-language',
  /** The code editor, highlighting the node's language. */
  codeEditor: 'code-editor',
} as const;


/** What a new code node holds: a `main` taking the inputs by name and returning the outputs by name. */
export const DEFAULT_CODE = `// Inputs arrive as one object; return an object with one key per output.
function main({ arg1, arg2 }) {
  return {
    result: String(arg1 ?? '') + String(arg2 ?? ''),
  };
}
`;

/** Dify's contract: `main` gets the inputs as keyword arguments and returns a dict, one key per output. */
export const DEFAULT_PYTHON_CODE = `def main(arg1: str, arg2: str) -> dict:
    return {
        "result": str(arg1 or "") + str(arg2 or ""),
    }
`;

/** The template a new node of each language starts with. */
export const DEFAULT_CODE_OF: Record<CodeLanguage, string> = { javascript: DEFAULT_CODE, python3: DEFAULT_PYTHON_CODE };

/** Whether the code defines the `main` the sandbox calls. */
export function hasMain(language: CodeLanguage, code: string): boolean {
  if (language === 'python3') return /^(?:async\s+)?def\s+main\s*\(/m.test(code);
  return /\bfunction\s+main\s*\(|\b(?:const|let|var)\s+main\s*=/.test(code);
}

const runSettings = runSettingsShape({ timeout: 30, maxTimeout: 300 });

const configSchema = z.object({
  /** JavaScript runs in QuickJS, Python 3 in Pyodide (both WASM, in the server's sandbox workers). */
  language: z.enum(CODE_LANGUAGES).default('javascript').meta({ label: 'fields.language', optionLabels: 'languages', widget: CODE_WIDGETS.codeLanguage, order: 0 }),
  inputs: z
    .array(NamedSelector)
    .max(50)
    .default([
      { name: 'arg1', selector: [] },
      { name: 'arg2', selector: [] },
    ])
    .meta({ label: 'fields.inputs', widget: NODE_WIDGETS.inputVariables, order: 1 }),
  code: z.string().max(100_000).default(DEFAULT_CODE).meta({ label: 'fields.code', widget: CODE_WIDGETS.codeEditor, language: 'javascript', order: 2 }),
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
  else if (!hasMain(c.language, c.code)) out.push({ key: c.language === 'python3' ? 'issues.mainMissingPython' : 'issues.mainMissing', path: ['code'] });
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

/** Runs JavaScript or Python 3 in a sandbox over inputs taken from variables, returning typed outputs. */
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
      description: '在沙箱中运行 JavaScript 或 Python 3 代码，处理输入并返回输出',
      fields: { language: '语言', inputs: '输入变量', code: '代码', outputs: '输出变量' },
      languages: { javascript: 'JavaScript', python3: 'Python 3' },
      issues: {
        codeEmpty: '代码为空',
        mainMissing: '代码中需要一个 main 函数',
        mainMissingPython: '代码中需要一个 main 函数（def main(...) -> dict）',
        outputsEmpty: '没有声明输出变量',
        inputUnused: '代码中没有用到输入 {{name}}',
      },
    },
    en: {
      title: 'Code',
      description: 'Runs JavaScript or Python 3 in a sandbox over its inputs and returns outputs',
      fields: { language: 'Language', inputs: 'Input variables', code: 'Code', outputs: 'Output variables' },
      languages: { javascript: 'JavaScript', python3: 'Python 3' },
      issues: {
        codeEmpty: 'The code is empty',
        mainMissing: 'The code needs a main function',
        mainMissingPython: 'The code needs a main function (def main(...) -> dict)',
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
