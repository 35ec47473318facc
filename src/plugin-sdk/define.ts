import { DEFAULT_SOURCE_HANDLE, FLOW_MODES, NODE_KIND_RE, type NodeConfig } from '../../schemas/flow';
import { pluginNamespace } from './messages';
import type { Computed, HandleSpec, NodeSummaryRow, NodePlugin, NodePluginDefinition, Port, PortContext } from './types';

/** A plugin definition that cannot work (bad kind or version). Thrown when the module loads. */
export class PluginDefinitionError extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(`Node plugin "${kind}": ${message}`);
  }
}

const NO_PORTS: readonly Port[] = Object.freeze([]);
const NO_SUMMARY: readonly NodeSummaryRow[] = Object.freeze([]);
const DEFAULT_HANDLES: readonly HandleSpec[] = Object.freeze([{ id: DEFAULT_SOURCE_HANDLE }]);

function computed<C, R>(value: Computed<C, R> | undefined, fallback: R): (config: C, ctx: PortContext) => R {
  if (typeof value === 'function') return value as (config: C, ctx: PortContext) => R;
  const fixed = value ?? fallback;
  return () => fixed;
}

/**
 * Defines a node kind. The result is plain data plus functions (no React): the default export of
 * a kind folder's `manifest.ts`, which the server loads with the executor and the editor with the
 * view (`withView` from `plugin-sdk/view`). Run `runPluginContract` on it in its test.
 *
 * @example
 * import { z } from 'zod';
 * import { defineNodePlugin, MaybeSelector, Template } from '../../src/plugin-sdk';
 *
 * export const weather = defineNodePlugin({
 *   kind: 'acme-weather',
 *   version: 2,
 *   category: 'tool',
 *   icon: { lucide: 'cloud-sun' },
 *   i18n: {
 *     zh: { title: '天气', description: '查询城市天气', issues: { cityMissing: '请选择城市变量' } },
 *     en: { title: 'Weather', description: 'Looks up the weather of a city', issues: { cityMissing: 'Choose the city variable' } },
 *   },
 *   configSchema: z.object({
 *     city: MaybeSelector.default([]),
 *     unit: z.enum(['c', 'f']).default('c'),
 *     note: Template.default(''),
 *   }),
 *   outputs: (config) => [
 *     { name: 'temperature', type: 'number', labelKey: config.unit === 'c' ? 'ports.celsius' : 'ports.fahrenheit' },
 *     { name: 'summary', type: 'string' },
 *   ],
 *   validate: (node) => (node.config.city.length ? [] : [{ key: 'issues.cityMissing', path: ['city'] }]),
 *   migrations: [
 *     // Version 1 stored `fahrenheit: boolean`.
 *     { from: 1, up: ({ fahrenheit, ...rest }) => ({ ...rest, unit: fahrenheit ? 'f' : 'c' }), sample: { city: [], fahrenheit: true } },
 *   ],
 * });
 */
export function defineNodePlugin<C extends NodeConfig>(def: NodePluginDefinition<C>): NodePlugin<C> {
  if (!NODE_KIND_RE.test(def.kind) || def.kind.length > 64) {
    throw new PluginDefinitionError(def.kind, 'kind must be lower-case words joined by - or _ (at most 64 characters)');
  }
  if (!Number.isInteger(def.version) || def.version < 1) {
    throw new PluginDefinitionError(def.kind, `version must be an integer >= 1 (got ${def.version})`);
  }
  const validate = def.validate;
  const summary = def.summary;
  return Object.freeze({
    kind: def.kind,
    version: def.version,
    category: def.category,
    icon: def.icon,
    color: def.color,
    i18n: def.i18n,
    ns: pluginNamespace(def.kind),
    titleKey: def.titleKey ?? 'title',
    descriptionKey: def.descriptionKey ?? 'description',
    configSchema: def.configSchema,
    modes: def.modes ?? FLOW_MODES,
    migrations: [...(def.migrations ?? [])].sort((a, b) => a.from - b.from),
    container: def.container,
    parents: def.parents,
    singleton: def.singleton ?? false,
    deletable: def.deletable ?? true,
    palette: def.palette ?? true,
    targetHandle: def.targetHandle ?? true,
    dify: def.dify,
    inputs: computed<C, Port[]>(def.inputs, NO_PORTS as Port[]),
    outputs: computed<C, Port[]>(def.outputs, NO_PORTS as Port[]),
    innerOutputs: computed<C, Port[]>(def.innerOutputs, NO_PORTS as Port[]),
    sourceHandles: computed<C, HandleSpec[]>(def.sourceHandles, DEFAULT_HANDLES as HandleSpec[]),
    validate: validate ? (node, graph) => validate.call(def, node, graph) : () => [],
    summary: summary ? (config) => summary.call(def, config) : () => NO_SUMMARY as NodeSummaryRow[],
  } satisfies NodePlugin<C>);
}
