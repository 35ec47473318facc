/**
 * Server figures for `npm run bench:engine` (printed, nothing asserted), against a real server on
 * the embedded database (in memory) and the fake OpenAI-compatible provider of the API tests:
 * - runs per second of a 10-node workflow through POST .../draft/workflow-runs (each stream read to
 *   its end; the clock stops when the last run is also stored);
 * - the latency the server adds to the first token: time to the first `answer_chunk` of a chat run
 *   through the server minus time to the first token read straight from the fake provider. The fake
 *   and the client run in processes of their own (as a remote provider and a browser would), so
 *   neither is slowed by the server's work nor slows it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { FlowDocument } from '../../schemas/flow';
import { Settings } from '../../src/server/settings';
import { createStudio } from '../../src/server/server';
import { runRegistry } from '../../src/server/runs/registry';
import { GOOD_KEY } from '../api/fake-providers';
import { flow } from '../engine/kit';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n: number, d = 2) => n.toFixed(d).padStart(8);

async function json(res: Response) {
  const body = (await res.json()) as { code: number | string; msg: string; data: any };
  if (body.code !== 0) throw new Error(`${res.url}: ${body.code} ${body.msg}`);
  return body.data;
}

/** Reads a body to its end. */
async function drain(res: Response): Promise<void> {
  for await (const _ of res.body as unknown as AsyncIterable<Uint8Array>);
}

const tenNodes = (): FlowDocument => {
  const ids = ['s', ...Array.from({ length: 8 }, (_, i) => `t${i}`), 'e'];
  const nodes: Parameters<typeof flow>[0] = [['s', 'start', { variables: [{ name: 'name', label: '', type: 'text', required: true, options: [], allowed_extensions: [] }] }]];
  for (let i = 0; i < 8; i++) {
    const prev = i ? [`t${i - 1}`, 'output'] : ['s', 'name'];
    nodes.push([`t${i}`, 'template-transform', { inputs: [{ name: 'x', selector: prev }], template: `{{ x }}${i}` }]);
  }
  nodes.push(['e', 'end', { outputs: [{ name: 'out', selector: ['t7', 'output'] }] }]);
  return flow(nodes, ids.slice(1).map((id, i) => [ids[i], id]));
};

const chatDoc = flow(
  [
    ['s', 'start'],
    ['llm', 'llm', { model: { provider: 'openai', name: 'gpt-4o-mini', mode: 'chat', params: { temperature: 0.7, stop: [], response_format: 'text' } }, prompts: [{ role: 'user', text: '{{#sys.query#}}' }] }],
    ['ans', 'answer', { answer: '{{#llm.text#}}' }],
  ],
  [
    ['s', 'llm'],
    ['llm', 'ans'],
  ],
  'chatflow',
);

/** The fake provider in a child process (./fake-provider-process.ts), as a remote provider would be. */
export async function remoteFakeOpenAi(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./fake-provider-process.ts', import.meta.url).pathname], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const { baseUrl } = JSON.parse(line) as { baseUrl: string };
  return {
    baseUrl,
    close: async () => {
      child.stdin.end();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

export async function benchServer() {
  const password = 'Bench12345';
  const studio = await createStudio(Settings.parse({ adminUser: 'admin', adminPassword: password, clientDir: '/nonexistent', logLevel: 'silent' }), { inMemory: true });
  const fake = await remoteFakeOpenAi();
  // The fake provider is a local model server: opened by host:port, as an operator would.
  studio.ctx.settings.outboundAllow = [new URL(fake.baseUrl).host];
  try {
    const base = await studio.app.listen({ port: 0, host: '127.0.0.1' });
    const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const login = await json(await post('/api/v1/console/base/login', { tenantId: '00000000-0000-0000-0000-000000000000', username: 'admin', password }));
    const auth = { authorization: `Bearer ${login.access_token}` };
    await json(await post(`/api/v1/admin/models/model-providers/openai/credentials`, { credentials: { base_url: fake.baseUrl, api_key: GOOD_KEY } }, auth));
    const ws = await json(await post('/api/v1/console/workspaces', { name: 'Bench' }, auth));
    const h = { ...auth, 'x-workspace-id': ws.id };
    const app = async (name: string, document: FlowDocument) => {
      const a = await json(await post('/api/v1/console/apps', { name, description: name, type: document.mode, icon: { icon: 'bot' } }, h));
      const res = await fetch(`${base}/api/v1/console/apps/workflow`, { method: 'PUT', headers: { 'content-type': 'application/json', ...h }, body: JSON.stringify({ app_id: a.id, base_revision: 1, document }) });
      await json(res);
      return a.id as string;
    };
    const wf = await app('Ten nodes', tenNodes());
    const chat = await app('Chat', chatDoc);
    const registry = runRegistry(studio.ctx);
    const settled = async () => {
      while (registry.size) await new Promise((r) => setTimeout(r, 1));
    };

    // Runs per second: one client after another, and 4 clients at once.
    const runOnce = async () => {
      const res = await post(`/api/v1/console/apps/${wf}/draft/workflow-runs`, { inputs: { name: 'x' } }, h);
      if (res.status !== 200) throw new Error(`workflow run: ${res.status} ${await res.text()}`);
      await drain(res);
    };
    for (let i = 0; i < 20; i++) await runOnce(); // warm up
    await settled();
    for (const clients of [1, 4]) {
      const total = 200;
      const t0 = performance.now();
      let left = total;
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (left-- > 0) await runOnce();
        }),
      );
      await settled();
      const ms = performance.now() - t0;
      console.log(`${`workflow-runs over HTTP, ${clients} client${clients > 1 ? 's' : ''}`.padEnd(34)} nodes     10 | ${fmt((total * 1000) / ms, 1)} runs/s | ${fmt(ms / total)} ms/run (stream read, run stored)`);
    }

    // First token: straight from the fake provider, then through the server, read by a client in a
    // process of its own (./first-token-client.ts), as a browser is.
    const client = spawn(process.execPath, ['--import', 'tsx', new URL('./first-token-client.ts', import.meta.url).pathname], { stdio: ['pipe', 'pipe', 'inherit'] });
    client.stdin.end(`${JSON.stringify({ fakeBaseUrl: fake.baseUrl, fakeKey: GOOD_KEY, url: `${base}/api/v1/console/apps/${chat}/draft/chat-messages`, headers: h, rounds: 65 })}\n`);
    const [line] = (await once(createInterface({ input: client.stdout }), 'line')) as [string];
    const { direct, served } = JSON.parse(line) as { direct: number[]; served: number[] };
    const d = median(direct.slice(5));
    const s = median(served.slice(5));
    console.log(
      `${'first token (chat run)'.padEnd(34)} direct ${fmt(d)} ms | through the server ${fmt(s)} ms | overhead ${fmt(s - d)} ms (median of 60; target <= 5 ms)`,
    );
  } finally {
    await fake.close();
    await studio.close();
  }
}
