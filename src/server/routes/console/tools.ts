import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, page } from '../../../../schemas/common';
import {
  BuiltinToolsAnswer,
  FunctionCreateBody,
  FunctionParams,
  FunctionTestBody,
  FunctionTestResult,
  FunctionUpdateBody,
  McpCreateBody,
  McpToggleBody,
  McpToolParams,
  McpToolsAnswer,
  OpenApiImportBody,
  PublishBody,
  Tool,
  ToolCreateBody,
  ToolDetail,
  ToolFunction,
  ToolListQuery,
  ToolParams,
  ToolUpdateBody,
  ToolVersion,
  WorkflowToolCreateBody,
} from '../../../../schemas/tool';
import { BUILTIN_TOOL_PROVIDER, BUILTIN_TOOLS } from '../../tools/builtin';
import type { ServerContext } from '../../context';
import { requireMembership } from '../../context';
import { scopeOf } from '../../services/workspace-resources';
import * as svc from '../../tools/service';
import * as fns from '../../tools/functions';
import { importOpenApiTool } from '../../tools/import';
import { createMcpTool, liveMcpTools, setMcpToolEnabled } from '../../tools/mcp';
import { createWorkflowTool } from '../../tools/workflow';

const tags = ['console: tools'];
const headers = z.looseObject({ 'x-workspace-id': z.string().optional().describe('The project space (required; missing: VALIDATION-1008)') });
const done = <T>(data: T) => ({ code: 0 as const, msg: 'success', data });

/**
 * Tools of the project space named by X-Workspace-Id (spec 3, 7.5 tools): CRUD, publish and
 * unpublish with versions, functions CRUD and test, OpenAPI import, MCP servers, workflow tools.
 * Any member reads and tests; owner and admin change.
 */
export const toolRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/', { schema: { tags, summary: 'Tools of the project space, newest first, with function and reference counts', headers, querystring: ToolListQuery, response: { 200: ok(page(Tool)) } } }, async (req) =>
    done(await svc.listTools(ctx, scopeOf(req), req.query)),
  );

  app.post('/', { schema: { tags, summary: 'Create a custom tool by hand (owner, admin)', headers, body: ToolCreateBody, response: { 200: ok(Tool) } } }, async (req) => {
    const { name, intro, icon, auth } = req.body;
    return done(await svc.createTool(ctx, scopeOf(req), { name, intro, icon, auth }));
  });

  app.put('/', { schema: { tags, summary: 'Change a tool (owner, admin)', headers, body: ToolUpdateBody, response: { 200: ok(Tool) } } }, async (req) =>
    done(await svc.updateTool(ctx, scopeOf(req), req.body)),
  );

  app.post(
    '/import-openapi',
    { schema: { tags, summary: 'Create a custom tool from an OpenAPI 3.x or Swagger 2.0 document (JSON or YAML): one function per operation', headers, body: OpenApiImportBody, response: { 200: ok(Tool) } } },
    async (req) => done(await importOpenApiTool(ctx, scopeOf(req), req.body)),
  );

  app.post(
    '/mcp',
    { schema: { tags, summary: 'Add an MCP server by its config JSON ({ mcpServers: { name: { command, args, env } | { url, headers } } }) (owner, admin)', headers, body: McpCreateBody, response: { 200: ok(Tool) } } },
    async (req) => done(await createMcpTool(ctx, scopeOf(req), req.body)),
  );

  app.post(
    '/workflow',
    { schema: { tags, summary: 'Offer a workflow app of the project space as a tool; its start fields become the parameters (owner, admin)', headers, body: WorkflowToolCreateBody, response: { 200: ok(Tool) } } },
    async (req) => done(await createWorkflowTool(ctx, scopeOf(req), req.body)),
  );

  app.get(
    '/builtin',
    { schema: { tags, summary: 'The built-in (inner) tools: current time, calculator, web page reader (any member)', headers, response: { 200: ok(BuiltinToolsAnswer) } } },
    async (req) => {
      const s = scopeOf(req);
      await requireMembership(ctx.db, s.caller, s.workspaceId);
      const list = Object.values(BUILTIN_TOOLS).map((b) => ({ name: b.definition.name, description: b.definition.description ?? '', parameters: b.definition.parameters }));
      return done({ provider: BUILTIN_TOOL_PROVIDER as 'builtin', tools: list });
    },
  );

  app.get('/:tool_id', { schema: { tags, summary: 'One tool with its functions', headers, params: ToolParams, response: { 200: ok(ToolDetail) } } }, async (req) =>
    done(await svc.getToolDetail(ctx, scopeOf(req), req.params.tool_id)),
  );

  app.delete(
    '/:tool_id',
    { schema: { tags, summary: 'Delete a tool (owner, admin); refused while apps use it', headers, params: ToolParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      await svc.deleteTool(ctx, scopeOf(req), req.params.tool_id);
      return done(null);
    },
  );

  app.post(
    '/:tool_id/publish',
    { schema: { tags, summary: 'Publish the tool: a new version with a snapshot (owner, admin)', headers, params: ToolParams, body: PublishBody.optional(), response: { 200: ok(Tool) } } },
    async (req) => done(await svc.publishTool(ctx, scopeOf(req), req.params.tool_id, req.body?.note ?? '')),
  );

  app.post('/:tool_id/unpublish', { schema: { tags, summary: 'Take the tool back to draft (owner, admin)', headers, params: ToolParams, response: { 200: ok(Tool) } } }, async (req) =>
    done(await svc.unpublishTool(ctx, scopeOf(req), req.params.tool_id)),
  );

  app.get('/:tool_id/versions', { schema: { tags, summary: 'Published versions, newest first', headers, params: ToolParams, response: { 200: ok(z.array(ToolVersion)) } } }, async (req) =>
    done(await svc.listVersions(ctx, scopeOf(req), req.params.tool_id)),
  );

  // ------------------------------------------------------------ functions

  app.post(
    '/:tool_id/functions',
    { schema: { tags, summary: 'Add a function to a custom tool (owner, admin)', headers, params: ToolParams, body: FunctionCreateBody, response: { 200: ok(ToolFunction) } } },
    async (req) => {
      const { id: _id, ...input } = req.body;
      return done(await fns.createFunction(ctx, scopeOf(req), req.params.tool_id, input));
    },
  );

  app.put(
    '/:tool_id/functions',
    { schema: { tags, summary: 'Change a function (owner, admin)', headers, params: ToolParams, body: FunctionUpdateBody, response: { 200: ok(ToolFunction) } } },
    async (req) => done(await fns.updateFunction(ctx, scopeOf(req), req.params.tool_id, req.body)),
  );

  app.get('/:tool_id/functions/:function_id', { schema: { tags, summary: 'One function', headers, params: FunctionParams, response: { 200: ok(ToolFunction) } } }, async (req) =>
    done(await fns.getFunction(ctx, scopeOf(req), req.params.tool_id, req.params.function_id)),
  );

  app.delete(
    '/:tool_id/functions/:function_id',
    { schema: { tags, summary: 'Delete a function (owner, admin)', headers, params: FunctionParams, response: { 200: ok(z.null()) } } },
    async (req) => {
      await fns.deleteFunction(ctx, scopeOf(req), req.params.tool_id, req.params.function_id);
      return done(null);
    },
  );

  app.post(
    '/:tool_id/functions/:function_id/test',
    {
      schema: {
        tags,
        summary: 'Call the function with sample inputs through the guarded HTTP client; a failed call is answered as a result with its error',
        headers,
        params: FunctionParams,
        body: FunctionTestBody,
        response: { 200: ok(FunctionTestResult) },
      },
    },
    async (req) => done(await fns.testFunction(ctx, scopeOf(req), req.params.tool_id, req.params.function_id, req.body.inputs)),
  );

  // ------------------------------------------------------------ MCP

  app.get(
    '/:tool_id/mcp-tools',
    { schema: { tags, summary: "Connects to the MCP server now and lists its tools with their switches (a failure's reason is in msg)", headers, params: ToolParams, response: { 200: ok(McpToolsAnswer) } } },
    async (req) => done(await liveMcpTools(ctx, scopeOf(req), req.params.tool_id)),
  );

  app.put(
    '/:tool_id/mcp-tools/:name',
    { schema: { tags, summary: 'Switch one tool of the MCP server on or off (owner, admin)', headers, params: McpToolParams, body: McpToggleBody, response: { 200: ok(Tool) } } },
    async (req) => done(await setMcpToolEnabled(ctx, scopeOf(req), req.params.tool_id, req.params.name, req.body.enabled)),
  );
};
