import type { FlowDocument } from '../../../schemas/flow';
import type { ServerContext } from '../context';
import { createRunModelService } from './model-adapter';

/**
 * Follow-up suggestions after an answer (the app's `suggested_questions_after_answer` feature): one
 * short call to the app's own model (its first LLM node's, else its first agent's) with the last
 * question and answer. No model in the flow, a model that fails or an answer with no usable lines:
 * an empty list, never an error (the suggestions are a nicety under the answer).
 */

const MAX_QUESTIONS = 3;
const TIMEOUT_MS = 15_000;

/** The first LLM (else agent) node's model of the document. */
export function appModelOf(document: FlowDocument): { provider: string; name: string } | null {
  for (const kind of ['llm', 'agent']) {
    const node = document.nodes.find((n) => n.kind === kind);
    const model = (node?.config as { model?: { provider?: unknown; name?: unknown } } | undefined)?.model;
    if (typeof model?.provider === 'string' && model.provider && typeof model.name === 'string' && model.name) return { provider: model.provider, name: model.name };
  }
  return null;
}

/** The questions of the model's answer: one a line, list marks and quotes taken off, at most three. */
export function questionsOf(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)、])\s*/, '').replace(/^["“']|["”']$/g, '').trim())
    .filter((l) => l.length > 0 && l.length <= 200)
    .slice(0, MAX_QUESTIONS);
}

export async function suggestFollowUps(ctx: ServerContext, tenantId: string, document: FlowDocument, turn: { query: string; answer: string }): Promise<string[]> {
  const model = appModelOf(document);
  if (!model || !turn.answer.trim()) return [];
  try {
    const r = await createRunModelService(ctx, tenantId).chat(
      {
        provider: model.provider,
        model: model.name,
        messages: [
          {
            role: 'system',
            content: `Suggest up to ${MAX_QUESTIONS} short follow-up questions the user may ask next, in the language of the conversation. Answer with the questions only, one per line, without numbering.`,
          },
          { role: 'user', content: `Question: ${turn.query.slice(0, 4000)}\n\nAnswer: ${turn.answer.slice(0, 8000)}` },
        ],
        parameters: { temperature: 0.3, max_tokens: 256 },
      },
      { signal: AbortSignal.timeout(TIMEOUT_MS) },
    );
    return questionsOf(r.text);
  } catch {
    return [];
  }
}
