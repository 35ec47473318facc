import { expect } from 'vitest';
import type { FlowDocument } from '../../schemas/flow';
import type { ApiKeyCreated } from '../../schemas/app-api';
import type { Harness, Reply } from './harness';
import { publish } from './portal-kit';
import { createApp, flow, model, prompt, textInput } from './runs-kit';
import { expectOk } from './workspace-fixture';

/**
 * Helpers of the public API tests (issue 22): apps published and given keys, and /v1 calls with a
 * key (injected into the real server: the same routes, hooks and serializers as over a socket).
 */

export const KEYS = (appId: string) => `/api/v1/console/apps/${appId}/api-keys`;

export type Owner = { token: string; workspaceId: string };

/** A workflow saying `template` about its text input `word` (output `said`), with a required `word`. */
export const sayFlow = (template = 'said {{ word }}'): FlowDocument =>
  flow(
    [
      ['s', 'start', { variables: [textInput('word')] }],
      ['t', 'template-transform', { inputs: [{ name: 'word', selector: ['s', 'word'] }], template }],
      ['e', 'end', { outputs: [{ name: 'said', selector: ['t', 'output'] }] }],
    ],
    [
      ['s', 't'],
      ['t', 'e'],
    ],
  );

/** A chatflow answering `says: <the model's text>.` with memory of earlier turns. */
export const chatFlow = (says: string, extra: Partial<FlowDocument> = {}): FlowDocument => ({
  ...flow(
    [
      ['s', 'start'],
      ['llm', 'llm', { model: model('openai', 'gpt-4o-mini'), prompts: [prompt('system', 'Be brief.'), prompt('user', '{{#sys.query#}}')], memoryEnabled: true, memoryWindow: 5 }],
      ['ans', 'answer', { answer: `${says}: {{#llm.text#}}.` }],
    ],
    [
      ['s', 'llm'],
      ['llm', 'ans'],
    ],
    'chatflow',
  ),
  ...extra,
});

/** Creates the app, publishes it as 1.0.0 and answers its id. */
export async function publishedApp(h: Harness, owner: Owner, name: string, doc: FlowDocument): Promise<string> {
  const id = await createApp(h, owner.token, owner.workspaceId, name, doc);
  await publish(h, owner, id, '1.0.0');
  return id;
}

export async function createKey(h: Harness, owner: Owner, appId: string, body: { name?: string; rate_limit_per_minute?: number | null } = {}): Promise<ApiKeyCreated> {
  return expectOk(await h.call('POST', KEYS(appId), { ...owner, body: { name: body.name ?? 'server', ...(body.rate_limit_per_minute !== undefined ? { rate_limit_per_minute: body.rate_limit_per_minute } : {}) } }));
}

/** A /v1 call with `key` as the bearer. */
export async function v1(h: Harness, key: string | null, method: string, path: string, opts: { body?: unknown; query?: Record<string, string | number | undefined>; headers?: Record<string, string> } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  if (key) headers.authorization = `Bearer ${key}`;
  return h.call(method, `/v1${path}`, { headers, query: opts.query, body: opts.body });
}

/** A Dify error answer: `{ code, message, status }` with this status and code. */
export function expectDifyError(r: Reply, status: number, code: string) {
  expect(r.status, r.raw.body.slice(0, 400)).toBe(status);
  const body = r.body as unknown as { code: string; message: string; status: number };
  expect(body.code).toBe(code);
  expect(body.status).toBe(status);
  expect(typeof body.message).toBe('string');
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status']);
}

/** The JSON objects of a Dify SSE body (`data:` lines), and whether pings came. */
export function difyEvents(body: string): Record<string, any>[] {
  // Each frame's `data:` line (a frame also has its `id:` line; a ping has no data).
  return body
    .split('\n\n')
    .map((f) => f.split('\n').find((l) => l.startsWith('data: ')))
    .filter((l): l is string => l !== undefined)
    .map((l) => JSON.parse(l.slice(6)));
}
