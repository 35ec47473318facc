/**
 * The canvas pickers' tool sources (src/canvas/widgets/context.tsx `WorkspaceResources.tools` and
 * `.mcpServers`) over the tools API, for the editor route to pass in:
 * @example <WorkspaceResourcesContext value={{ ...others, ...toolResources(workspaceId) }}>
 * Tools: the built-in tools (id `builtin`) and each custom or workflow tool with its enabled
 * functions (option id = function id, as tool nodes and agents store it). MCP servers: each MCP tool
 * with its switched-on server tools (option id = the server's tool name).
 */
import type { McpServerOption, ToolOption, WorkspaceResources } from '../../../canvas/widgets/context';
import { getTool, listBuiltinTools, listTools } from '../../../api/tools';

export function toolResources(workspaceId: string): Pick<WorkspaceResources, 'tools' | 'mcpServers'> {
  return {
    tools: {
      async list({ signal }): Promise<ToolOption[]> {
        const opts = { workspaceId, signal, reaction: 'silent' as const };
        const [builtin, page] = await Promise.all([listBuiltinTools(opts), listTools({ page_size: 1000 }, opts)]);
        const own = page.items.filter((t) => t.type === 'custom' || t.type === 'workflow');
        const details = await Promise.all(own.map((t) => getTool(t.id, opts)));
        return [
          { id: builtin.provider, name: 'Built-in', functions: builtin.tools.map((b) => ({ id: b.name, name: b.name, description: b.description })) },
          ...details.map((d) => ({ id: d.id, name: d.name, description: d.intro, functions: d.functions.filter((f) => f.enabled).map((f) => ({ id: f.id, name: f.name, description: f.description })) })),
        ];
      },
    },
    mcpServers: {
      async list({ signal }): Promise<McpServerOption[]> {
        const page = await listTools({ page_size: 1000, type: 'mcp' }, { workspaceId, signal, reaction: 'silent' });
        return page.items.map((t) => ({ id: t.id, name: t.name, description: t.intro, tools: t.mcp_enabled.map((n) => ({ id: n, name: n })) }));
      },
    },
  };
}
