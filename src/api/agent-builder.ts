import { GeneratedAgent, OptimizeEvent, type GenerateAgentBody, type OptimizeInstructionsBody } from '../../schemas/agent-builder';
import { call, request, type Endpoint, type RequestOptions } from './request';
import { readSseFrames } from './sse';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const base = '/api/v1/console/apps/:app_id/agent-builder';
export const agentBuilderEndpoints = {
  optimize: { method: 'POST', url: `${base}/optimize`, name: 'agentBuilder.optimize' },
  generate: { method: 'POST', url: `${base}/generate`, name: 'agentBuilder.generate' },
} as const satisfies Record<string, Endpoint>;

export type { GeneratedAgent, OptimizeEvent, OptimizeInstructionsBody, GenerateAgentBody };

/**
 * Streams an improved version of the agent's instructions: `optimize_started`, `text_chunk`s, then
 * `optimize_end` (the whole text) or `error`. No usable model rejects before the stream, like any
 * call. Aborting `opts.signal` closes the connection, which stops the model call.
 */
export async function* streamOptimizeInstructions(appId: string, body: OptimizeInstructionsBody, opts: Opts = {}): AsyncGenerator<OptimizeEvent> {
  const res = await request(agentBuilderEndpoints.optimize, { app_id: appId, ...body }, { ...opts, responseType: 'stream', headers: { Accept: 'text/event-stream', ...opts.headers } });
  for await (const frame of readSseFrames(res, opts.signal)) {
    let data: unknown;
    try {
      data = JSON.parse(frame.data);
    } catch {
      continue;
    }
    const parsed = OptimizeEvent.safeParse(data);
    if (parsed.success) yield parsed.data;
  }
}

/** A first configuration (instructions, opening statement, questions, variables) from a description; nothing is saved. */
export const generateAgentConfig = (appId: string, body: GenerateAgentBody, opts?: Opts) => call(GeneratedAgent, agentBuilderEndpoints.generate, { app_id: appId, ...body }, opts);
