import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeServer } from './fake-providers';
import { useStudio } from './harness';
import { distribute, modelProvider, publish } from './portal-kit';
import { createApp, flow, model, parseSse, prompt } from './runs-kit';
import { setUpWorkspaces, type Fixture } from './workspace-fixture';

// Issue 34, "first-token overhead": a chat stream leaves its connection reusable (keep-alive), so
// the browser's next message costs no new connection (a round trip, more with TLS). Over real
// HTTP with one kept-alive socket, as a browser's connection pool does.

const h = useStudio();
let f: Fixture;
let fake: FakeServer;
let appId = '';
let base = '';

const chatDoc = flow(
  [
    ['s', 'start'],
    ['llm', 'llm', { model: model('openai', 'gpt-4o-mini'), prompts: [prompt('user', '{{#sys.query#}}')] }],
    ['ans', 'answer', { answer: '{{#llm.text#}}' }],
  ],
  [
    ['s', 'llm'],
    ['llm', 'ans'],
  ],
  'chatflow',
);

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'keepalive');
  fake = await modelProvider(h);
  appId = await createApp(h, f.u.member.token, f.wsA, 'Chat', chatDoc);
  const owner = { token: f.u.owner.token, workspaceId: f.wsA };
  await distribute(h, owner, appId, 'portal', (await publish(h, owner, appId, 'v1')).id);
  base = await h.studio.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => fake?.close());

/** Sends one chat message through `agent`; answers the reply's headers, events and whether the socket was reused. */
function send(agent: http.Agent, query: string): Promise<{ headers: http.IncomingHttpHeaders; events: { type: string }[]; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/api/v1/web/portal/${appId}/chat-messages`, {
      method: 'POST',
      agent,
      headers: { authorization: `Bearer ${f.u.outsider.token}`, 'content-type': 'application/json' },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ headers: res.headers, events: parseSse(body) as { type: string }[], reused: req.reusedSocket }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ query }));
  });
}

describe('chat streams and connections', () => {
  it('two successive chat streams reuse one kept-alive socket', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let connections = 0;
    const counted = () => connections++;
    h.studio.app.server.on('connection', counted);
    try {
      const first = await send(agent, 'hello');
      const second = await send(agent, 'again');
      for (const r of [first, second]) {
        expect(r.headers['content-type']).toMatch(/^text\/event-stream/);
        expect(r.headers.connection).toBe('keep-alive');
        expect(r.events.at(-1)?.type).toBe('message_end');
      }
      expect(second.reused).toBe(true);
      expect(connections).toBe(1);
    } finally {
      h.studio.app.server.off('connection', counted);
      agent.destroy();
    }
  });
});
