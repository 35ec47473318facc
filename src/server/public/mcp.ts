import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ServerContext } from '../context';
import { AppError } from '../errors';
import { ErrorCode } from '../../../schemas/errors';
import { startRun } from '../runs/launch';
import { startFields } from '../runs/portal-access';
import { checkStartInputs } from '../runs/portal-inputs';
import type { VerifiedKey } from '../security/api-keys';
import { offeredApps } from '../services/mcp-exposure';
import { endUserCaller } from './dify-runs';
import { apiTarget, type ApiTarget } from './target';

/**
 * A project space's MCP server (@modelcontextprotocol/sdk's McpServer, one per request: the
 * endpoint is stateless): each published workflow app the owner offers is a tool named after the
 * app, its input schema built from the start form; a call runs the app's served version (source
 * `mcp`, the key as the end user) and answers its outputs (as JSON text and structured content).
 */

const TOOL_NAME_MAX = 64;

/** A tool name MCP clients accept (`[A-Za-z0-9_-]`), from the app's name; unique within the server. */
function toolName(target: ApiTarget, taken: Set<string>): string {
  let name = target.app.name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, TOOL_NAME_MAX);
  if (!name || taken.has(name)) name = `app_${target.app.id.replace(/-/g, '').slice(0, 12)}`;
  taken.add(name);
  return name;
}

/** The start form as a zod shape (file fields are left out: MCP has no uploads). */
function inputShape(target: ApiTarget): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const f of startFields(target.flow.document)) {
    let t: z.ZodType;
    switch (f.type) {
      case 'number':
        t = z.number();
        break;
      case 'checkbox':
        t = z.boolean();
        break;
      case 'select':
        t = f.options.length ? z.enum(f.options as [string, ...string[]]) : z.string();
        break;
      case 'file':
      case 'file-list':
        continue;
      default:
        t = f.max_length !== null ? z.string().max(f.max_length) : z.string();
    }
    t = t.describe(f.label);
    shape[f.name] = f.required && f.type !== 'checkbox' ? t : t.optional();
  }
  return shape;
}

/** The MCP server of the space for this key's request; the apps offered now, as tools. */
export async function spaceMcpServer(ctx: ServerContext, key: VerifiedKey, log: (e: unknown) => void): Promise<McpServer> {
  const offered = await offeredApps(ctx, key.workspaceId);
  if (!offered.enabled) throw new AppError(404, ErrorCode.ROUTE_NOT_FOUND, 'This project space offers no MCP tools (its owner has not turned the MCP endpoint on)');
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const server = new McpServer({ name: 'weft', version: '1' });
  const taken = new Set<string>();
  for (const appId of offered.appIds) {
    let target: ApiTarget;
    try {
      target = await apiTarget(ctx, appId);
    } catch {
      continue; // deleted, inactive or no longer published: not offered
    }
    if (target.app.mode !== 'workflow' || target.app.workspaceId !== key.workspaceId || target.app.tenantId !== key.tenantId) continue;
    server.registerTool(
      toolName(target, taken),
      { title: target.app.name, description: target.app.description || target.app.name, inputSchema: inputShape(target) },
      async (args: Record<string, unknown>) => {
        const caller = endUserCaller(target, `mcp:${key.id}`);
        try {
          const inputs = await checkStartInputs(ctx, caller, target.flow.document, args);
          // The call answers when the run ends, so no client can resume its stream: it is not logged.
          const started = await startRun(ctx, { flow: target.flow, source: 'mcp', userId: caller.userId, endUser: `mcp:${key.name}`, kind: 'workflow', query: '', inputs, files: [], logEvents: false }, log);
          const result = await started.stored;
          if (result.status !== 'succeeded') {
            return { isError: true, content: [{ type: 'text' as const, text: `${result.error?.code ?? result.status}: ${result.error?.message ?? 'the run did not finish'}` }] };
          }
          return { content: [{ type: 'text' as const, text: JSON.stringify(result.outputs) }], structuredContent: result.outputs };
        } catch (e) {
          return { isError: true, content: [{ type: 'text' as const, text: e instanceof AppError ? `${e.code}: ${e.message}` : 'The app could not run' }] };
        }
      },
    );
  }
  return server;
}
