import { and, eq } from 'drizzle-orm';
import type { Caller, ServerContext } from '../context';
import { UUID_RE } from '../context';
import { notFoundOrForeign } from '../errors';
import { conversations, messages } from '../db/schema';
import { ownMessage } from '../services/portal-conversations';
import type { AppRef } from '../runs/app-flow';

/** The answer of one of the user's portal messages in this app (another app's or user's: VALIDATION-1000). */
export async function portalAnswer(ctx: ServerContext, caller: Caller, appId: string, messageId: string): Promise<string> {
  const { message, conversation } = await ownMessage(ctx, caller, messageId);
  if (conversation.appId !== appId) throw notFoundOrForeign('Message', messageId);
  return message.answer;
}

/** The answer of a message of one of the app's conversations (the console's debug chat). */
export async function appAnswer(ctx: ServerContext, app: AppRef, messageId: string): Promise<string> {
  if (!UUID_RE.test(messageId)) throw notFoundOrForeign('Message', messageId);
  const [row] = await ctx.db
    .select({ answer: messages.answer })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(eq(messages.id, messageId), eq(conversations.appId, app.id)));
  if (!row) throw notFoundOrForeign('Message', messageId);
  return row.answer;
}
