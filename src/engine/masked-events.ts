import type { RunError } from '../../schemas/run';
import type { EventBody } from './run';
import type { SecretMasker } from './secrets';

type Body<T extends EventBody['type']> = Extract<EventBody, { type: T }>;
const ANSWER = 'answer';
const nodeStream = (executionId: string) => `node:${executionId}`;

/** The fields of each event that carry a run's values (the others are ids, kinds, states, counts). */
const VALUE_FIELDS = ['inputs', 'outputs', 'answer', 'variables'] as const;

/** An error with its message masked (its code and node id are kept: they say what failed). */
export const maskError = <E extends RunError | undefined>(m: SecretMasker, e: E): E => (e ? { ...e, message: m.text(e.message) } : e);

/**
 * Masks a run's events on their way out of the engine (Run.emit): the values every event carries
 * (inputs, outputs, answer, loop variables, error messages; never ids, kinds or states, so a secret
 * that happens to equal `succeeded` or a node id breaks nothing), and the streamed text of `answer_chunk` / `node_chunk` across chunk boundaries (a secret a model
 * streams in two pieces is held back until it is whole, then masked). What a stream holds back goes
 * out before its node's end (node chunks) or the run's end (the answer).
 */
export class MaskedEvents {
  private lastAnswerNode = '';
  /** The last chunk event of each node stream still holding text (to repeat its fields on flush). */
  private readonly nodeChunks = new Map<string, Body<'node_chunk'>>();

  constructor(private readonly masker: SecretMasker) {}

  process(body: EventBody): EventBody[] {
    const m = this.masker;
    switch (body.type) {
      case 'answer_chunk': {
        this.lastAnswerNode = body.nodeId;
        const text = m.chunk(ANSWER, body.text);
        return text ? [{ ...body, text }] : [];
      }
      case 'node_chunk': {
        const key = nodeStream(body.executionId);
        this.nodeChunks.set(key, body);
        const text = m.chunk(key, body.text);
        return text ? [{ ...body, text }] : [];
      }
      case 'node_finished':
      case 'node_failed':
        return [...this.flushNode(nodeStream(body.executionId)), this.values(body)];
      case 'run_finished':
      case 'run_failed': {
        const out: EventBody[] = [];
        const rest = m.flush(ANSWER);
        if (rest) out.push({ type: 'answer_chunk', nodeId: this.lastAnswerNode, text: rest });
        for (const key of [...this.nodeChunks.keys()]) out.push(...this.flushNode(key));
        out.push(this.values(body));
        return out;
      }
      default:
        return [this.values(body)];
    }
  }

  private values(body: EventBody): EventBody {
    const m = this.masker;
    const out: Record<string, unknown> = { ...body };
    for (const k of VALUE_FIELDS) if (k in out) out[k] = k === 'answer' ? m.text(out[k] as string) : m.value(out[k]);
    if ('error' in body && body.error) out.error = maskError(m, body.error);
    return out as EventBody;
  }

  private flushNode(key: string): Body<'node_chunk'>[] {
    const last = this.nodeChunks.get(key);
    if (!last) return [];
    this.nodeChunks.delete(key);
    const text = this.masker.flush(key);
    return text ? [{ ...last, text }] : [];
  }
}
