import type { AppImportBody, AppImportResult } from '../../../schemas/app-import';
import { detectFlowFormat, importFlowFile, parseYamlObject } from '../../canvas/dsl';
import type { ServerContext } from '../context';
import { requireMembership } from '../context';
import { AppError, badRequest } from '../errors';
import { ErrorCode } from '../../../schemas/errors';
import { eq } from 'drizzle-orm';
import { apps } from '../db/schema';
import { appView, BUILDERS, createApp, saveDraft } from './apps';
import { forgetDraftRows } from './cache-generations';
import type { Scope } from './workspace-resources';

/** The icon of an imported app: the file's when it names one of ours (Dify's emoji do not). */
const DEFAULT_ICON = { icon: 'bot' } as const;

/**
 * Any member: a new app from a flow file (Dify DSL or ours), read by the editor's importer against
 * the kinds this server runs, with its report (mapped, unmapped, warnings). A file that cannot be
 * imported answers VALIDATION-1000 with the importer's errors in `data.errors` (i18n keys of the
 * `dsl` namespace) and creates nothing.
 */
export async function importApp(ctx: ServerContext, s: Scope, body: AppImportBody): Promise<AppImportResult> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, BUILDERS);
  const registry = ctx.plugins.registries().nodes;
  const r = importFlowFile(body.content, registry);
  if (!r.ok) {
    const first = r.errors[0];
    throw badRequest(`The file cannot be imported: ${first ? `${first.key} ${JSON.stringify(first.params ?? {})}` : 'unknown reason'}`, { errors: r.errors });
  }
  const yaml = parseYamlObject(body.content);
  const format = yaml.ok && detectFlowFormat(yaml.value) === 'weft' ? 'weft' : 'dify';
  const name = (body.name ?? r.app.name.trim()).slice(0, 50) || 'Imported app';
  const description = (body.description ?? r.app.description.trim()).slice(0, 500) || name;
  const icon = r.app.icon ? { icon: r.app.icon, ...(r.app.iconColor ? { iconColor: r.app.iconColor } : {}) } : DEFAULT_ICON;
  const app = await createApp(ctx, s, { name, description, type: r.document.mode, icon });
  try {
    await saveDraft(ctx, s, { app_id: app.id, base_revision: app.draft_revision, document: r.document });
  } catch (e) {
    // The app and its flow come together or not at all (the importer's member may not delete apps).
    await ctx.db.delete(apps).where(eq(apps.id, app.id));
    forgetDraftRows();
    throw e;
  }
  return { app: await appView(ctx, s, app.id), report: { format, mapped: r.document.nodes.length, unmapped: r.unmapped, warnings: r.warnings } };
}

/**
 * POST /apps/{app_id}/import: the editor's import dialog. The file replaces the app's draft (a new
 * revision, as a save), with the draft save's role checks; a file of another mode is APP-1001, since
 * an app's type never changes (its runs, API and portal depend on it).
 */
export async function importIntoApp(ctx: ServerContext, s: Scope, appId: string, body: AppImportBody): Promise<AppImportResult> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, BUILDERS);
  const app = await appView(ctx, s, appId);
  const registry = ctx.plugins.registries().nodes;
  const r = importFlowFile(body.content, registry, { mode: app.type });
  if (!r.ok) {
    const mismatch = r.errors.find((e) => e.key === 'errors.modeMismatch');
    if (mismatch) {
      const mode = String(mismatch.params?.mode ?? '');
      throw new AppError(400, ErrorCode.IMPORT_MODE_MISMATCH, `The file holds a ${mode} flow, but this app is a ${app.type}`, { mode, expected: app.type });
    }
    const first = r.errors[0];
    throw badRequest(`The file cannot be imported: ${first ? `${first.key} ${JSON.stringify(first.params ?? {})}` : 'unknown reason'}`, { errors: r.errors });
  }
  const yaml = parseYamlObject(body.content);
  const format = yaml.ok && detectFlowFormat(yaml.value) === 'weft' ? 'weft' : 'dify';
  await saveDraft(ctx, s, { app_id: app.id, base_revision: app.draft_revision, document: r.document });
  return { app: await appView(ctx, s, app.id), report: { format, mapped: r.document.nodes.length, unmapped: r.unmapped, warnings: r.warnings } };
}
