import type { FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import type { Db } from './db/client';
import type { Settings } from './settings';
import type { TokenService } from './security/tokens';
import type { CodeSandbox } from './sandbox';
import type { PluginHost } from './plugins/host';
import type { RunBus } from './runs/bus';
import type { OutboundPolicy } from './security/outbound-policy';
import type { SystemRole } from '../../schemas/auth';
import type { MemberRole } from '../../schemas/workspace';
import { ErrorCode } from '../../schemas/errors';
import { AppError, forbidden, notFoundOrForeign, unauthenticated } from './errors';
import { workspaceMembers, workspaces } from './db/schema';

/** What every route gets: the database, settings and services. Passed to route plugins as options. */
export interface ServerContext {
  db: Db;
  settings: Settings;
  tokens: TokenService;
  /** Encryption key for secrets at rest (credentials, model keys, database passwords). */
  secretKey: Uint8Array;
  /**
   * The outbound network policy: every connection the server makes for a user (HTTP nodes, tools,
   * MCP, knowledge URLs, database drivers, model providers) is admitted by it; it also knows the
   * commands stdio MCP servers may start.
   */
  outbound: OutboundPolicy;
  /** The code node's sandbox, one per process: created with the context, closed on shutdown. */
  sandbox: CodeSandbox;
  /** The node kinds runs compile against (built-in kinds). */
  plugins: PluginHost;
  /**
   * True when this process is the database's only user (the embedded database): what it caches of
   * rows it writes itself cannot go stale behind its back. False on a shared PostgreSQL server.
   */
  exclusiveDb?: boolean;
  /**
   * Messages between the processes of one database (run stops, new run events): LISTEN/NOTIFY on a
   * PostgreSQL server, an in-process emitter on the embedded database (runs/bus.ts).
   */
  bus: RunBus;
}

/** The verified caller, from the access token. */
export interface Caller {
  userId: string;
  tenantId: string;
  role: SystemRole;
  username: string;
  /** The sign-in session the access token belongs to (auth_sessions.id). */
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

export function requireCaller(req: FastifyRequest): Caller {
  if (!req.caller) throw unauthenticated();
  return req.caller;
}

export function requireSystemRole(req: FastifyRequest, ...roles: SystemRole[]): Caller {
  const caller = requireCaller(req);
  if (!roles.includes(caller.role)) throw forbidden();
  return caller;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The workspace id header (spec 7.1) for workspace-scoped resources; missing answers VALIDATION-1008. */
export function workspaceIdFromHeader(req: FastifyRequest): string {
  const raw = req.headers['x-workspace-id'];
  const id = Array.isArray(raw) ? raw[0] : raw;
  if (!id) throw new AppError(400, ErrorCode.HEADER_MISSING, 'Request header X-Workspace-Id does not exist');
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Workspace', id);
  return id;
}

export interface Membership {
  workspace: typeof workspaces.$inferSelect;
  memberId: string;
  role: MemberRole;
}

/**
 * Loads the caller's membership of a workspace in the caller's tenant. A missing, foreign or
 * not-joined workspace answers VALIDATION-1000; a role outside `allowed` answers 403.
 */
export async function requireMembership(
  db: Db,
  caller: Pick<Caller, 'tenantId' | 'userId'>,
  workspaceId: string,
  allowed?: readonly MemberRole[],
): Promise<Membership> {
  if (!UUID_RE.test(workspaceId)) throw notFoundOrForeign('Workspace', workspaceId);
  const rows = await db
    .select({ workspace: workspaces, memberId: workspaceMembers.id, role: workspaceMembers.role })
    .from(workspaces)
    .innerJoin(workspaceMembers, and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.userId, caller.userId)))
    .where(and(eq(workspaces.id, workspaceId), eq(workspaces.tenantId, caller.tenantId)));
  const row = rows[0];
  if (!row) throw notFoundOrForeign('Workspace', workspaceId);
  if (allowed && !allowed.includes(row.role)) throw forbidden('Your role in this project space does not allow this operation');
  return row;
}
