import { and, desc, eq } from 'drizzle-orm';
import type { ExecutionPlan } from '../../engine';
import { memoryTurns, type ChatMessage, type ConversationMemory, type MemoryConfig } from '../../plugin-sdk/executor';
import type { Db } from '../db/client';
import { conversations, messages } from '../db/schema';

/** What a run reads of its conversation's memory as it starts (see {@link createConversationMemory}). */
export interface MemoryPrefetch {
  conversationId: string;
  /** The most turns any node of the run may ask for. */
  turns: number;
}

/**
 * Conversation memory from the messages table, bound to one tenant and app: the last `turns`
 * finished messages of the conversation (the one being answered is still `running` and left out),
 * oldest first, each as a user question and an assistant answer. Failed and stopped turns are left
 * out too: a half answer would mislead the model.
 *
 * With `prefetch` (a message of an existing conversation whose flow has memory on), the read starts
 * at once, as the run starts, instead of when the model node asks: it overlaps whatever comes first
 * (the dialogue count, the nodes before the model's, the model call's set-up), so the first token
 * no longer waits for a round trip of its own (issues 21/34). A node asking for fewer turns gets
 * the newest of them, exactly what its own read would have answered.
 */
export function createConversationMemory(db: Db, scope: { tenantId: string; appId: string; newConversationId?: string; prefetch?: MemoryPrefetch }): ConversationMemory {
  const read = async (conversationId: string, turns: number) =>
    db
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
  const early = scope.prefetch && scope.prefetch.conversationId !== scope.newConversationId ? { ...scope.prefetch, rows: read(scope.prefetch.conversationId, scope.prefetch.turns) } : undefined;
  // A run that ends (or fails) before its model node asks must not leave the read's failure unhandled.
  early?.rows.catch(() => {});
  return {
    async history({ conversationId, turns }) {
      // The conversation the run itself started has no finished message: nothing to read.
      if (turns <= 0 || conversationId === scope.newConversationId) return [];
      const newestFirst = early && early.conversationId === conversationId && turns <= early.turns ? (await early.rows).slice(0, turns) : await read(conversationId, turns);
      const out: ChatMessage[] = [];
      for (let i = newestFirst.length - 1; i >= 0; i--) out.push({ role: 'user', content: newestFirst[i]!.query }, { role: 'assistant', content: newestFirst[i]!.answer });
      return out;
    },
  };
}

/** The most memory turns a node of the plan asks for (0: none has memory on); worked out once per compiled plan. */
const planTurns = new WeakMap<ExecutionPlan, number>();
export function memoryTurnsOf(plan: ExecutionPlan): number {
  let n = planTurns.get(plan);
  if (n === undefined) {
    n = 0;
    // Every runnable node at any depth, and an agent team's members (they answer with memory too).
    for (const nodes of [plan.nodes, plan.peers]) for (const node of nodes.values()) n = Math.max(n, memoryTurns(node.config as MemoryConfig));
    planTurns.set(plan, n);
  }
  return n;
}
