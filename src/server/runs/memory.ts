import { and, desc, eq } from 'drizzle-orm';
import type { ChatMessage, ConversationMemory } from '../../plugin-sdk/executor';
import type { Db } from '../db/client';
import { conversations, messages } from '../db/schema';

/**
 * Conversation memory from the messages table, bound to one tenant and app: the last `turns`
 * finished messages of the conversation (the one being answered is still `running` and left out),
 * oldest first, each as a user question and an assistant answer. Failed and stopped turns are left
 * out too: a half answer would mislead the model.
 */
export function createConversationMemory(db: Db, scope: { tenantId: string; appId: string; newConversationId?: string }): ConversationMemory {
  return {
    async history({ conversationId, turns }) {
      // The conversation the run itself started has no finished message: nothing to read.
      if (turns <= 0 || conversationId === scope.newConversationId) return [];
      const rows = await db
        .select({ query: messages.query, answer: messages.answer })
        .from(messages)
        .innerJoin(conversations, eq(conversations.id, messages.conversationId))
        .where(
          and(
            eq(messages.conversationId, conversationId),
            eq(conversations.tenantId, scope.tenantId),
            eq(conversations.appId, scope.appId),
            eq(messages.status, 'succeeded'),
          ),
        )
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(Math.min(turns, 500));
      const out: ChatMessage[] = [];
      for (const r of rows.reverse()) out.push({ role: 'user', content: r.query }, { role: 'assistant', content: r.answer });
      return out;
    },
  };
}
