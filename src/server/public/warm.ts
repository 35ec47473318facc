import { desc, isNotNull, isNull, and } from 'drizzle-orm';
import { ChatMessageBody, WorkflowBlockingResponse, WorkflowRunBody } from '../../../schemas/public-api';
import type { ServerContext } from '../context';
import { apiKeys } from '../db/schema';
import { verifyApiKey } from '../security/api-keys';
import { apiTarget } from './target';

/** Apps whose served version is compiled at start (the most recently used keys' apps first). */
const WARM_APPS_MAX = 50;

/**
 * Makes the first public-API request after a start as fast as the next ones (issue 22: the first
 * run within 50 ms): the served version of the apps with live keys compiled and cached, the key
 * lookup's query planned once, and the hot request and answer schemas run once (zod builds its fast
 * path on first use). Never fails the start: what cannot be warmed is done on first use instead.
 */
export async function warmPublicApi(ctx: ServerContext, log: (e: unknown) => void): Promise<void> {
  try {
    WorkflowRunBody.safeParse({ inputs: {}, response_mode: 'blocking', user: 'warm' });
    ChatMessageBody.safeParse({ query: 'warm', user: 'warm' });
    WorkflowBlockingResponse.safeParse({
      task_id: 'w',
      workflow_run_id: 'w',
      data: { id: 'w', workflow_id: 'w', status: 'succeeded', outputs: {}, error: null, elapsed_time: 0, total_tokens: 0, total_steps: 0, created_at: 0, finished_at: 0 },
    });
    await verifyApiKey(ctx, `wk-${'0'.repeat(40)}`);
    const rows = await ctx.db
      .selectDistinct({ appId: apiKeys.appId, used: apiKeys.lastUsedAt })
      .from(apiKeys)
      .where(and(isNull(apiKeys.revokedAt), isNotNull(apiKeys.appId)))
      .orderBy(desc(apiKeys.lastUsedAt))
      .limit(WARM_APPS_MAX);
    for (const appId of new Set(rows.map((r) => r.appId!))) {
      await apiTarget(ctx, appId).catch(() => undefined); // unpublished or inactive: nothing to warm
    }
  } catch (e) {
    log(e);
  }
}
