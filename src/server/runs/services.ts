import { DEFAULT_RUN_LIMITS } from '../../engine';
import type { ExecutorServices } from '../../plugin-sdk/executor';
import { createPluginCredentialService } from '../plugins/credentials';
import type { ServerContext } from '../context';
import { createGuardedHttpClient, type GuardedHttpClient } from '../http';
import { createSandboxService } from '../sandbox';
import { createMcpService, createToolService } from '../tools/runtime';
import { createKnowledgeService } from '../knowledge/runtime';
import { createFileTextService } from './file-text';
import { createConversationMemory, type MemoryPrefetch } from './memory';
import { createRunModelService } from './model-adapter';

/** Whose run it is: every service a run gets is bound to this tenant, workspace and app. */
export interface RunScope {
  tenantId: string;
  workspaceId: string;
  appId: string;
  userId: string;
  /**
   * Workflow tools: the apps whose runs started this one through a workflow tool, outermost first
   * (empty for a run a person started), and when the outermost run hits its time limit (ms since
   * the epoch). The tool service refuses an app already in the chain and caps the depth.
   */
  chain?: readonly string[];
  deadline?: number;
  /** Secret values of this run and of the runs that called it: a workflow tool's run masks them too. */
  secrets?: readonly unknown[];
  /** A conversation this run starts: it has no message before this run's, so its memory is not read. */
  newConversationId?: string;
  /** An existing conversation's memory, read as the run starts (./memory.ts). */
  memoryPrefetch?: MemoryPrefetch;
}

// One guarded client per server context: it holds no per-run state, and its policy reads the
// operator's lists at each request.
const httpClients = new WeakMap<ServerContext, GuardedHttpClient>();
function httpClientOf(ctx: ServerContext): GuardedHttpClient {
  let client = httpClients.get(ctx);
  if (!client) {
    client = createGuardedHttpClient({ policy: ctx.outbound });
    httpClients.set(ctx, client);
  }
  return client;
}

/**
 * The services the node executors of one run get (`ExecutionContext.services`), bound to the
 * caller's tenant and workspace: models (the tenant's providers), the guarded HTTP client, the
 * process's code sandbox and conversation memory from the messages table.
 */
export function buildExecutorServices(ctx: ServerContext, scope: RunScope): ExecutorServices {
  const services: ExecutorServices = {
    models: createRunModelService(ctx, scope.tenantId, scope.userId),
    http: httpClientOf(ctx),
    // The sandbox's scheduler caps concurrent runs per tenant and per user.
    sandbox: createSandboxService(ctx.sandbox, { tenantId: scope.tenantId, userId: scope.userId }),
    memory: createConversationMemory(ctx.db, {
      tenantId: scope.tenantId,
      appId: scope.appId,
      ...(scope.newConversationId ? { newConversationId: scope.newConversationId } : {}),
      ...(scope.memoryPrefetch ? { prefetch: scope.memoryPrefetch } : {}),
    }),
  };
  // Custom HTTP and workflow tools, and MCP servers, of the run's workspace.
  services.tools = createToolService(ctx, { ...scope, deadline: scope.deadline ?? Date.now() + DEFAULT_RUN_LIMITS.maxRunTimeMs });
  services.mcp = createMcpService(ctx, scope);
  // Knowledge bases of the run's workspace (knowledge-retrieval node).
  services.knowledge = createKnowledgeService(ctx, scope);
  // Files the run was given, as text (document-extractor node).
  services.files = createFileTextService(ctx, scope);
  // Installed plugins' credentials of the run's tenant, for their own executors.
  services.credentials = createPluginCredentialService(ctx, scope.tenantId);
  return services;
}
