/**
 * The canvas's widget kit for node views: what a kind's own widgets (its `view.tsx`, `widgets`) are
 * built from. Rows, selects and pickers that know the flow (upstream variables, the workspace's
 * resources), the editors, the inspector's texts and the shared styles.
 *
 * @example
 * // plugins/acme-weather/view.tsx
 * import { asWidget, NameInput, RowList, useRowBase, blankRow, type NodeWidgetProps } from '../../src/canvas/widgets/kit';
 * function CitiesWidget(p: NodeWidgetProps) {
 *   const { list, locked } = useRowBase(p);
 *   return <RowList {...list} addLabel="+" newRow={() => blankRow(p)} renderRow={(row, update) => <NameInput row={row} update={update} locked={locked} />} />;
 * }
 * export default defineNodeView(weatherPlugin, { widgets: { [WEATHER_WIDGETS.cities]: asWidget(CitiesWidget) } });
 */
import { createElement, type ComponentType } from 'react';
import type { WidgetRenderer } from '../../kit/schema-form';
import type { NodeWidgetProps } from './list-widgets';

export { ConstantInput } from './constant-input';
export { FileTestRows } from './file-tests';
export { ModelListContext, NodeWidgetContext, useNodeWidgetEnv, WorkspaceResourcesContext } from './context';
export { NameField, useRows } from './flow-widgets';
export { useInspectorT, useVariableLabels } from './labels';
export { blankRow, NameInput, useRowBase, type NodeWidgetProps } from './list-widgets';
export { PairPicker, useResourceList, type ResourceState } from './resource-widgets';
export { defaultOf, elementShape, enumChoices, maxOf, minOf, RowSelect, RowList, rowsWithIssues } from './rows';
export { keepOrFirst, operatorsFor, takesValue } from './operators';
export { TemplateEditor } from './template-editor';
export { VariablePicker } from './variable-picker';
export { default as widgetStyles } from './widgets.module.css';

/** A widget component as SchemaForm's renderer (what `NodeView.widgets` holds). */
export const asWidget =
  (c: ComponentType<NodeWidgetProps>): WidgetRenderer =>
  (p) =>
    createElement(c, p);
