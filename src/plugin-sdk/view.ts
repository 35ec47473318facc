import type { ReactNode } from 'react';
import type { FlowNode, NodeConfig } from '../../schemas/flow';
import type { WidgetRenderer } from '../kit/schema-form';
import type { FlowGraph, NodeIssue, NodePlugin } from './types';

/**
 * The editor side of a node plugin: an optional canvas body and an optional inspector panel.
 * Kept apart from the manifest (`./types.ts`) so that the server, which loads manifests and
 * executors, never imports React: only the editor's list (src/canvas/builtin-plugins.ts, and the
 * browser bundles of plugin packages) and the plugins' `view.tsx` files import this module. It
 * imports React types only.
 *
 * Without a `Panel` the inspector renders a form from the config schema, with the canvas's widgets
 * and the view's own `widgets`; without a `Body` the node shows its title, icon and branches only.
 *
 * @example
 * // plugins/acme-weather/view.tsx
 * import { defineNodeView, type NodePanelProps } from '../../src/plugin-sdk/view';
 * import { weather, type WeatherConfig } from './manifest';
 *
 * function Panel({ config, onChange, readOnly }: NodePanelProps<WeatherConfig>) {
 *   return <select disabled={readOnly} value={config.unit} onChange={(e) => onChange({ ...config, unit: e.target.value as 'c' | 'f' })}>…</select>;
 * }
 * export default defineNodeView(weather, { Panel });
 *
 * // the editor attaches it: withView(weather, view)
 */

/**
 * A function component taking `Props`. Declared through a method so that its parameter is
 * compared bivariantly: a plugin's `NodeView<LlmConfig>` fits the registry's list without `any`.
 */
export type ViewComponent<Props> = { render(props: Props): ReactNode }['render'];

/** Props of a node's canvas body (the part under the title). The canvas owns these props. */
export interface NodeBodyProps<C extends NodeConfig = NodeConfig> {
  node: FlowNode<C>;
  /** The config parsed by the plugin's schema (defaults filled). */
  config: C;
  selected: boolean;
  readOnly: boolean;
}

/** Props of a node's inspector panel. The canvas owns these props. */
export interface NodePanelProps<C extends NodeConfig = NodeConfig> {
  node: FlowNode<C>;
  config: C;
  graph: FlowGraph;
  readOnly: boolean;
  /** This node's checklist entries (to show beside the fields by `path`). */
  issues: readonly NodeIssue[];
  /** Replace the config (one undoable edit; typed text is merged per field by the editor). */
  onChange(next: C): void;
}

export interface NodeView<C extends NodeConfig = NodeConfig> {
  Body?: ViewComponent<NodeBodyProps<C>>;
  Panel?: ViewComponent<NodePanelProps<C>>;
  /**
   * Widgets only this kind uses, by the name its schema gives them (`.meta({ widget })`). The
   * canvas's own widgets (`NODE_WIDGETS`) need no entry; a name here wins over them for this kind.
   * Build them from the canvas's widget kit (src/canvas/widgets: rows, pickers, editors).
   */
  widgets?: Readonly<Record<string, WidgetRenderer>>;
}

/** A plugin as the editor lists it: the manifest with its view. */
export interface EditorNodePlugin<C extends NodeConfig = NodeConfig> extends NodePlugin<C> {
  readonly view?: NodeView<C>;
}

export type AnyEditorNodePlugin = EditorNodePlugin<NodeConfig>;

/** Types a view against its plugin's config (identity at run time). */
export function defineNodeView<C extends NodeConfig>(_plugin: NodePlugin<C>, view: NodeView<C>): NodeView<C> {
  return view;
}

/** The plugin with its view attached, for the editor's list. */
export function withView<C extends NodeConfig>(plugin: NodePlugin<C>, view?: NodeView<C>): EditorNodePlugin<C> {
  return Object.freeze({ ...plugin, view });
}
