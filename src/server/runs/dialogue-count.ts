import { and, count, eq, ne } from 'drizzle-orm';
import type { ExecutionPlan } from '../../engine';
import type { ServerContext } from '../context';
import { messages } from '../db/schema';

/** Whether a plan reads `sys.dialogue_count` (computed once per compiled plan: plans are reused for many runs). */
const reads = new WeakMap<ExecutionPlan, boolean>();
export function readsDialogueCount(plan: ExecutionPlan): boolean {
  let r = reads.get(plan);
  if (r === undefined) {
    const nodes = JSON.stringify(plan.document.nodes);
    r = nodes.includes('sys.dialogue_count') || nodes.includes('"sys","dialogue_count"');
    reads.set(plan, r);
  }
  return r;
}

/**
 * `sys.dialogue_count` of a chat run (Dify's: the turn being answered, 1 for a conversation's first
 * message). Counted only for flows that read it: the other runs of a conversation pay no query.
 * The run's own message may or may not be written yet (launch does not wait), so it is left out of
 * the count by its id.
 */
export async function dialogueCount(ctx: ServerContext, plan: ExecutionPlan, conversation: { id: string; isNew: boolean; messageId?: string }): Promise<number | undefined> {
  if (conversation.isNew) return 1;
  if (!readsDialogueCount(plan)) return undefined;
  const own = conversation.messageId;
  const [row] = await ctx.db
    .select({ n: count() })
    .from(messages)
    .where(own ? and(eq(messages.conversationId, conversation.id), ne(messages.id, own)) : eq(messages.conversationId, conversation.id));
  return Number(row?.n ?? 0) + 1;
}
