import { and, eq } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { appDistributions, appVersions } from '../db/schema';
import { latestVersionRow } from '../services/apps-versions';

type VersionRow = typeof appVersions.$inferSelect;

/**
 * Which published version a workflow tool runs:
 * - a tool made by distributing its app to the `tool` platform (app_distributions.tool_id) runs the
 *   distributed version: publishing a newer one changes nothing until the owner moves the
 *   distribution; a cancelled distribution disables the tool (`cancelled`);
 * - a tool made on the tools page runs the app's latest published version.
 * `version` is undefined when there is none (never published, or every version deleted).
 */
export type WorkflowToolVersion =
  | { state: 'pinned'; version: VersionRow | undefined }
  | { state: 'latest'; version: VersionRow | undefined }
  | { state: 'cancelled'; version: undefined };

export async function workflowToolVersion(
  ctx: ServerContext,
  scope: { tenantId: string; workspaceId: string },
  toolId: string,
  appId: string,
): Promise<WorkflowToolVersion> {
  const [pin] = await ctx.db
    .select({ state: appDistributions.state, version: appVersions })
    .from(appDistributions)
    .leftJoin(appVersions, eq(appVersions.id, appDistributions.versionId))
    .where(
      and(
        eq(appDistributions.toolId, toolId),
        eq(appDistributions.platform, 'tool'),
        eq(appDistributions.appId, appId),
        eq(appDistributions.tenantId, scope.tenantId),
        eq(appDistributions.workspaceId, scope.workspaceId),
      ),
    );
  if (!pin) return { state: 'latest', version: await latestVersionRow(ctx, scope, appId) };
  if (pin.state === 'cancelled') return { state: 'cancelled', version: undefined };
  return { state: 'pinned', version: pin.version ?? undefined };
}
