import { and, eq } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { requireMembership, UUID_RE } from '../context';
import { apps } from '../db/schema';
import { badRequest, notFoundOrForeign } from '../errors';
import { latestVersionRow } from '../services/apps-versions';
import { MANAGERS, type Scope } from '../services/workspace-resources';
import type { AppIcon } from '../../../schemas/app';
import type { ParamRow } from '../../../schemas/parameter';
import { insertFunctions } from './functions';
import { insertTool, toolView } from './service';

/**
 * Workflow tools: a workflow app of the workspace offered as a tool with one function, `run`, whose
 * parameters are the start-form fields of the version it runs (an app never published cannot become
 * a tool: publish it on its Version tab first). A tool made by distributing the app to the `tool`
 * platform runs the distributed version; one made on the tools page the latest published version
 * (./workflow-version.ts). Runs call it through ./workflow-run.ts (that version's flow runs in-process).
 */

export const WORKFLOW_FUNCTION = 'run';

interface StartField {
  name?: string;
  label?: string;
  type?: string;
  required?: boolean;
  options?: string[];
}

/** The start node's fields as parameter rows (numbers as decimals, everything else as text). */
export function startFieldRows(document: unknown): ParamRow[] {
  const nodes = (document as { nodes?: { kind?: string; config?: { variables?: StartField[] } }[] })?.nodes ?? [];
  const start = nodes.find((n) => n.kind === 'start');
  return (start?.config?.variables ?? [])
    .filter((v) => typeof v.name === 'string' && /^[A-Za-z0-9_]+$/.test(v.name))
    .map((v) => ({
      param_key: v.name!,
      param_name: v.label || v.name!,
      description: v.label ?? '',
      data_type: v.type === 'number' ? ('decimal' as const) : ('string' as const),
      optional_values: v.type === 'select' ? (v.options ?? []).join(',') : '',
      is_not_null: v.required !== false,
      request_type: 'query_params' as const,
    }));
}

export async function createWorkflowTool(ctx: ServerContext, s: Scope, input: { app_id: string; name?: string; intro?: string; icon?: AppIcon }) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  if (!UUID_RE.test(input.app_id)) throw notFoundOrForeign('App', input.app_id);
  const [row] = await ctx.db
    .select({ app: apps })
    .from(apps)
    .where(and(eq(apps.id, input.app_id), eq(apps.workspaceId, s.workspaceId), eq(apps.tenantId, s.caller.tenantId)));
  if (!row) throw notFoundOrForeign('App', input.app_id);
  if (row.app.type !== 'workflow') throw badRequest('Only a workflow app can become a tool', { type: row.app.type });
  const version = await latestVersionRow(ctx, { tenantId: s.caller.tenantId, workspaceId: s.workspaceId }, row.app.id);
  if (!version) {
    throw badRequest(`The workflow app "${row.app.name}" has no published version: publish it on its Version tab before offering it as a tool`, {
      app_id: row.app.id,
      reason: 'TOOL-WORKFLOW-UNPUBLISHED',
    });
  }
  const id = await insertWorkflowTool(ctx, s, row.app, version.document, input);
  return toolView(ctx, s, id);
}

/**
 * Inserts the workflow tool of a workflow app (the caller checked role, app and mode), its `run`
 * function's parameters from `document` (the version it runs). Also used by distribution to the
 * `tool` platform (services/distribution.ts), which pins the tool to the distributed version.
 */
export async function insertWorkflowTool(
  ctx: ServerContext,
  s: Scope,
  app: { id: string; name: string; description: string },
  document: unknown,
  input: { name?: string; intro?: string; icon?: AppIcon } = {},
): Promise<string> {
  return insertTool(
    ctx,
    s,
    {
      type: 'workflow',
      name: input.name ?? app.name,
      intro: input.intro ?? app.description,
      icon: input.icon ?? { icon: 'workflow', iconColor: '#DBEAFE' },
      workflowAppId: app.id,
    },
    (tx, toolId) =>
      insertFunctions(tx, { id: toolId, auth: { type: 'none' } }, [
        {
          name: WORKFLOW_FUNCTION,
          description: app.description || app.name,
          method: 'POST',
          url: '',
          params: startFieldRows(document),
          headers: [],
          body: [],
          body_subtype: 'json',
          response: [],
          enabled: true,
        },
      ]),
  );
}
