import { randomUUID } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { requireMembership } from '../context';
import { toolFunctions, tools } from '../db/schema';
import { badRequest, exists } from '../errors';
import { MANAGERS, nothingToChange, type Scope, type Tx } from '../services/workspace-resources';
import type { ParamRow } from '../../../schemas/parameter';
import type { FunctionTestResult, ToolAuth, ToolFunction } from '../../../schemas/tool';
import { functionRow, toFunction, toolRow, wsOf, assertAuthUsable, type ToolRow } from './rows';
import { duplicateTool } from './service';
import { runFunction } from './http-call';

/** Functions of a custom tool (spec 7.5 "functions CRUD"), and the test call of one. */

export interface FunctionInput {
  name: string;
  description: string;
  method: ToolFunction['method'];
  url: string;
  auth?: ToolAuth;
  params: ParamRow[];
  headers: ParamRow[];
  body: ParamRow[];
  body_subtype: ToolFunction['body_subtype'];
  response: ParamRow[];
  enabled: boolean;
}

async function assertFunctionNameFree(tx: Tx, toolId: string, name: string, exceptId?: string) {
  const conds = [eq(toolFunctions.toolId, toolId), sql`lower(${toolFunctions.name}) = lower(${name})`];
  if (exceptId) conds.push(ne(toolFunctions.id, exceptId));
  const [hit] = await tx.select({ id: toolFunctions.id }).from(toolFunctions).where(and(...conds)).limit(1);
  if (hit) throw exists(`A function named '${name}' already exists in this tool`);
}

/** Inserts functions into a tool inside a transaction (used by create and by the OpenAPI import). */
export async function insertFunctions(tx: Tx, tool: { id: string; auth: ToolAuth }, list: FunctionInput[]) {
  for (const f of list) {
    await assertFunctionNameFree(tx, tool.id, f.name);
    await tx.insert(toolFunctions).values({
      id: randomUUID(),
      toolId: tool.id,
      name: f.name,
      description: f.description,
      method: f.method,
      url: f.url,
      auth: f.auth ?? tool.auth,
      params: f.params,
      headers: f.headers,
      body: f.body,
      bodySubtype: f.body_subtype,
      response: f.response,
      enabled: f.enabled,
    });
  }
}

function customOnly(tool: ToolRow) {
  if (tool.type !== 'custom') throw badRequest('Functions are added by hand only to custom tools', { type: tool.type });
}

const touch = (tx: Tx, toolId: string) => tx.update(tools).set({ updatedAt: new Date() }).where(eq(tools.id, toolId));

export async function getFunction(ctx: ServerContext, s: Scope, toolId: string, id: string) {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const tool = await toolRow(ctx, wsOf(s), toolId);
  return toFunction(await functionRow(ctx, tool, id));
}

export async function createFunction(ctx: ServerContext, s: Scope, toolId: string, input: FunctionInput) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const tool = await toolRow(ctx, wsOf(s), toolId);
  customOnly(tool);
  await assertAuthUsable(ctx, wsOf(s), input.auth);
  let id = '';
  await ctx.db
    .transaction(async (tx) => {
      await tx.select({ id: tools.id }).from(tools).where(eq(tools.id, tool.id)).for('update');
      await insertFunctions(tx, { id: tool.id, auth: tool.auth as ToolAuth }, [input]);
      const [row] = await tx.select({ id: toolFunctions.id }).from(toolFunctions).where(and(eq(toolFunctions.toolId, tool.id), sql`lower(${toolFunctions.name}) = lower(${input.name})`));
      id = row.id;
      await touch(tx, tool.id);
    })
    .catch(duplicateTool);
  return toFunction(await functionRow(ctx, tool, id));
}

export async function updateFunction(ctx: ServerContext, s: Scope, toolId: string, input: { id: string } & Partial<FunctionInput>) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const tool = await toolRow(ctx, wsOf(s), toolId);
  const row = await functionRow(ctx, tool, input.id);
  const { id: _id, ...fields } = input;
  if (Object.values(fields).every((v) => v === undefined)) throw nothingToChange();
  // A workflow tool's function mirrors the app's start form: only its description and switch change.
  if (tool.type === 'workflow' && Object.keys(fields).some((k) => fields[k as keyof typeof fields] !== undefined && k !== 'description' && k !== 'enabled')) {
    throw badRequest("A workflow tool's function follows its app: only the description and the switch can change");
  }
  await assertAuthUsable(ctx, wsOf(s), fields.auth);
  await ctx.db
    .transaction(async (tx) => {
      if (fields.name !== undefined) await assertFunctionNameFree(tx, tool.id, fields.name, row.id);
      await tx
        .update(toolFunctions)
        .set({
          name: fields.name,
          description: fields.description,
          method: fields.method,
          url: fields.url,
          auth: fields.auth,
          params: fields.params,
          headers: fields.headers,
          body: fields.body,
          bodySubtype: fields.body_subtype,
          response: fields.response,
          enabled: fields.enabled,
          updatedAt: new Date(),
        })
        .where(eq(toolFunctions.id, row.id));
      await touch(tx, tool.id);
    })
    .catch(duplicateTool);
  return toFunction(await functionRow(ctx, tool, row.id));
}

export async function deleteFunction(ctx: ServerContext, s: Scope, toolId: string, id: string) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const tool = await toolRow(ctx, wsOf(s), toolId);
  customOnly(tool);
  const row = await functionRow(ctx, tool, id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(toolFunctions).where(eq(toolFunctions.id, row.id));
    await touch(tx, tool.id);
  });
}

/** Any member: calls the function with sample inputs through the guarded client; failures come back as values. */
export async function testFunction(ctx: ServerContext, s: Scope, toolId: string, id: string, inputs: Record<string, unknown>): Promise<FunctionTestResult> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const tool = await toolRow(ctx, wsOf(s), toolId);
  if (tool.type !== 'custom') throw badRequest('Only the HTTP functions of custom tools can be tested here', { type: tool.type });
  const row = await functionRow(ctx, tool, id);
  return runFunction(ctx, wsOf(s), toFunction(row), inputs, { signal: AbortSignal.timeout(120_000) });
}
