import { z } from 'zod';
import { FAIL_BRANCH_HANDLE, matchesValueType, NODE_WIDGETS, type FlowNode, type HandleSpec, type PluginI18n, type PluginIssue, type Port } from '../../src/plugin-sdk';

/**
 * What a node does when it fails, how often it retries and how long it may take: the same fields
 * on every node that calls something outside the flow (llm, tool, mcp, code, http-request, agent,
 * knowledge-retrieval). Spread `runSettingsShape(…)` into the config object; the engine reads these
 * names. Kept flat (not one nested object) so the default form shows them as plain fields.
 */

export const ERROR_STRATEGIES = ['none', 'fail-branch', 'default-value'] as const;
export type ErrorStrategy = (typeof ERROR_STRATEGIES)[number];

/** The value an output takes when the node fails and the strategy is `default-value`. */
export const DefaultValue = z.object({
  name: z.string().max(64).default(''),
  value: z.unknown().optional(),
});
export type DefaultValue = z.infer<typeof DefaultValue>;

export interface RunSettingsOptions {
  /** Default timeout in seconds (and its maximum). */
  timeout: number;
  maxTimeout?: number;
}

/**
 * The shared fields, with this node's timeout default.
 * @example z.object({ url: Template.default(''), ...runSettingsShape({ timeout: 60 }) })
 */
export function runSettingsShape(opts: RunSettingsOptions) {
  const group = 'run.group';
  return {
    errorStrategy: z
      .enum(ERROR_STRATEGIES)
      .default('none')
      .meta({ label: 'run.errorStrategy', help: 'run.errorStrategyHelp', optionLabels: 'run.errorStrategies', group, order: 100 }),
    defaultValues: z
      .array(DefaultValue)
      .default([])
      .meta({ label: 'run.defaultValues', widget: NODE_WIDGETS.defaultValues, group, order: 101, visibleWhen: { field: 'errorStrategy', equals: 'default-value' } }),
    retryEnabled: z.boolean().default(false).meta({ label: 'run.retryEnabled', group, order: 102 }),
    maxRetries: z.number().int().min(1).max(10).default(3).meta({ label: 'run.maxRetries', group, order: 103, visibleWhen: { field: 'retryEnabled', equals: true } }),
    retryIntervalMs: z
      .number()
      .int()
      .min(100)
      .max(5000)
      .default(1000)
      .meta({ label: 'run.retryInterval', group, order: 104, visibleWhen: { field: 'retryEnabled', equals: true } }),
    timeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(opts.maxTimeout ?? Math.max(600, opts.timeout))
      .default(opts.timeout)
      .meta({ label: 'run.timeout', group, order: 105 }),
  };
}

/** The config part `runSettingsShape` adds. */
// A type alias, not an interface: it must fit `NodeConfig` (a record), which interfaces do not.
export type RunSettings = {
  errorStrategy: ErrorStrategy;
  defaultValues: DefaultValue[];
  retryEnabled: boolean;
  maxRetries: number;
  retryIntervalMs: number;
  timeoutSeconds: number;
};

/** The node's handles plus `fail-branch` when failures take their own branch. */
export function withFailBranch(config: Pick<RunSettings, 'errorStrategy'>, handles: HandleSpec[]): HandleSpec[] {
  return config.errorStrategy === 'fail-branch' ? [...handles, { id: FAIL_BRANCH_HANDLE, labelKey: 'run.failBranch' }] : handles;
}

/**
 * The outputs plus `error_message` and `error_code` when a failure does not stop the run (the
 * engine sets them on a failed node, so branches after it can tell what went wrong).
 */
export function withErrorOutputs(config: Pick<RunSettings, 'errorStrategy'>, ports: Port[]): Port[] {
  if (config.errorStrategy === 'none') return ports;
  const taken = new Set(ports.map((p) => p.name));
  const extra: Port[] = [
    { name: 'error_message', type: 'string', labelKey: 'run.errorMessage' },
    { name: 'error_code', type: 'string', labelKey: 'run.errorCode' },
  ];
  return [...ports, ...extra.filter((p) => !taken.has(p.name))];
}

/**
 * Checks the default values against the node's outputs: each names an output, fits its type, and
 * (warning) every output has one.
 */
export function checkRunSettings(node: FlowNode<RunSettings>, outputs: readonly Port[]): PluginIssue[] {
  const { errorStrategy, defaultValues } = node.config;
  if (errorStrategy !== 'default-value') return [];
  const out: PluginIssue[] = [];
  const byName = new Map(outputs.map((p) => [p.name, p]));
  defaultValues.forEach((d, i) => {
    const port = byName.get(d.name);
    if (!port) out.push({ key: 'run.issues.defaultValueUnknown', params: { name: d.name || `#${i + 1}` }, path: ['defaultValues', i, 'name'] });
    else if (!matchesValueType(d.value, port.type)) {
      out.push({ key: 'run.issues.defaultValueType', params: { name: d.name, type: port.type }, path: ['defaultValues', i, 'value'] });
    }
  });
  const given = new Set(defaultValues.map((d) => d.name));
  const missing = outputs.filter((p) => !given.has(p.name)).map((p) => p.name);
  if (missing.length) out.push({ key: 'run.issues.defaultValueMissing', params: { names: missing.join(', ') }, path: ['defaultValues'], severity: 'warning' });
  return out;
}

export const runSettingsTexts = {
  zh: {
    run: {
      group: '失败处理与重试',
      errorStrategy: '异常处理',
      errorStrategyHelp: '节点出错时：终止运行、走失败分支，或输出默认值继续',
      errorStrategies: { none: '终止运行', 'fail-branch': '失败分支', 'default-value': '默认值' },
      defaultValues: '默认输出值',
      retryEnabled: '失败时重试',
      maxRetries: '最大重试次数',
      retryInterval: '重试间隔（毫秒）',
      timeout: '超时（秒）',
      failBranch: '失败',
      errorMessage: '错误信息',
      errorCode: '错误码',
      issues: {
        defaultValueUnknown: '默认值 {{name}} 不是该节点的输出',
        defaultValueType: '默认值 {{name}} 的类型应为 {{type}}',
        defaultValueMissing: '这些输出没有默认值：{{names}}',
      },
    },
  },
  en: {
    run: {
      group: 'Errors and retries',
      errorStrategy: 'On error',
      errorStrategyHelp: 'When the node fails: stop the run, take the fail branch, or go on with default values',
      errorStrategies: { none: 'Stop the run', 'fail-branch': 'Fail branch', 'default-value': 'Default value' },
      defaultValues: 'Default output values',
      retryEnabled: 'Retry on failure',
      maxRetries: 'Maximum retries',
      retryInterval: 'Retry interval (ms)',
      timeout: 'Timeout (seconds)',
      failBranch: 'Failed',
      errorMessage: 'Error message',
      errorCode: 'Error code',
      issues: {
        defaultValueUnknown: 'The default value {{name}} is not an output of this node',
        defaultValueType: 'The default value {{name}} should be of type {{type}}',
        defaultValueMissing: 'These outputs have no default value: {{names}}',
      },
    },
  },
} satisfies PluginI18n;
