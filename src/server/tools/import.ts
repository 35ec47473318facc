import type { ServerContext } from '../context';
import { requireMembership } from '../context';
import { badRequest } from '../errors';
import { MANAGERS, type Scope } from '../services/workspace-resources';
import type { AppIcon } from '../../../schemas/app';
import { FunctionCreateBody, type ToolAuth } from '../../../schemas/tool';
import type { FunctionInput } from './functions';
import { insertFunctions } from './functions';
import { importOpenApi, OpenApiError } from './openapi';
import { insertTool, toolView } from './service';

/** POST /tools/import-openapi: a custom tool with one function per operation of the document. */
export async function importOpenApiTool(ctx: ServerContext, s: Scope, input: { document: string; name?: string; intro?: string; icon?: AppIcon; auth: ToolAuth }) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  let imported;
  try {
    imported = importOpenApi(input.document);
  } catch (e) {
    if (e instanceof OpenApiError) throw badRequest(e.message, { path: 'document' });
    throw e;
  }
  // Each function is checked with the same rules as one made by hand.
  const functions: FunctionInput[] = imported.functions.map((f) => {
    const r = FunctionCreateBody.safeParse({ ...f, auth: input.auth });
    if (!r.success) {
      const issue = r.error.issues[0];
      throw badRequest(`The operation "${f.name}" cannot be imported: ${issue.path.join('.')} ${issue.message}`, { path: 'document', operation: f.name });
    }
    const { id: _id, ...fn } = r.data;
    return fn;
  });
  const name = (input.name ?? imported.title.trim()).slice(0, 50) || 'Imported API';
  const intro = input.intro ?? imported.description.trim().slice(0, 500);
  const id = await insertTool(ctx, s, { type: 'custom', installMethod: 'openapi', name, intro, icon: input.icon, auth: input.auth }, (tx, toolId) =>
    insertFunctions(tx, { id: toolId, auth: input.auth }, functions),
  );
  return toolView(ctx, s, id);
}
