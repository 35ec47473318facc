import type { EventBody } from './run';
import type { SecretMasker } from './secrets';

type Body<T extends EventBody['type']> = Extract<EventBody, { type: T }>;
const ANSWER = 'answer';
const nodeStream = (executionId: string) => `node:${executionId}`;

/**
 * Masks a run's events on their way out of the engine (Run.emit): every value of every event, and
 * the streamed text of `answer_chunk` / `node_chunk` across chunk boundaries (a secret a model
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
        return [...this.flushNode(nodeStream(body.executionId)), m.value(body)];
      case 'run_finished':
      case 'run_failed': {
        const out: EventBody[] = [];
        const rest = m.flush(ANSWER);
        if (rest) out.push({ type: 'answer_chunk', nodeId: this.lastAnswerNode, text: rest });
        for (const key of [...this.nodeChunks.keys()]) out.push(...this.flushNode(key));
        out.push(m.value(body));
        return out;
      }
      default:
        return [m.value(body)];
    }
  }

  private flushNode(key: string): Body<'node_chunk'>[] {
    const last = this.nodeChunks.get(key);
    if (!last) return [];
    this.nodeChunks.delete(key);
    const text = this.masker.flush(key);
    return text ? [{ ...last, text }] : [];
  }
}
