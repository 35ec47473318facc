import { defineNodeView } from '../../src/plugin-sdk/view';
import { asWidget, PairPicker, type NodeWidgetProps } from '../../src/canvas/widgets/kit';
import { TOOL_WIDGETS, toolPlugin } from './manifest';

/**
 * A workspace tool and one of its functions. The field holds the tool id; the function goes to the
 * config's `functionId` (a hidden field of the same node), and its parameters fill `params`.
 */
function ToolWidget(p: NodeWidgetProps) {
  return <PairPicker p={p} kind="tool" second="functionId" paramsField="params" />;
}

/** The tool node's own widget: a workspace tool and its function. */
export default defineNodeView(toolPlugin, {
  widgets: { [TOOL_WIDGETS.tool]: asWidget(ToolWidget) },
});
