import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorCode } from '../../../../schemas/errors';
import type { ServerContext } from '../../context';
import { AppError } from '../../errors';
import { spaceMcpServer } from '../../public/mcp';
import { requireKey } from './key';

const tags = ['public: MCP'];
const security = [{ AppKey: [] }];
const Params = z.object({ workspace_id: z.string().max(64) });

/**
 * A project space's MCP endpoint over Streamable HTTP (stateless: every POST carries its JSON-RPC
 * messages and gets the answers as JSON). Authenticated by a key of that space (an app key, or
 * another space's: AUTH-1007). The tools are the space's published workflow apps its owner offers.
 */
export const mcpRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/mcp/:workspace_id',
    schema: { tags, security, summary: "MCP (Streamable HTTP, stateless) of a project space: its offered workflow apps as tools; a space key's", params: Params },
    handler: async (req, reply) => {
      const key = requireKey(req);
      if (key.appId !== null || key.workspaceId !== req.params.workspace_id) {
        throw new AppError(401, ErrorCode.API_KEY_INVALID, "This key is not a key of this project space's MCP endpoint");
      }
      const server = await spaceMcpServer(ctx, key, (e) => req.log.error({ err: e }, 'storing an MCP run failed'));
      // The SDK loads on the endpoint's first request, not at the server's start (issue 32).
      const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req.raw, reply.raw, req.body);
    },
  });
};
