import { defineNodeView } from '../../src/plugin-sdk/view';
import { asWidget, PairPicker, type NodeWidgetProps } from '../../src/canvas/widgets/kit';
import { MCP_WIDGETS, mcpPlugin } from './manifest';

/** An MCP server and one of its tools (`serverId`, then `toolName`; `args` when its parameters are known). */
function McpToolWidget(p: NodeWidgetProps) {
  return <PairPicker p={p} kind="mcp" second="toolName" paramsField="args" />;
}

/** The MCP node's own widget: a server and one of its tools. */
export default defineNodeView(mcpPlugin, {
  widgets: { [MCP_WIDGETS.mcpTool]: asWidget(McpToolWidget) },
});
