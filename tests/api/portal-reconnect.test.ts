import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureRequest } from '../../src/api/request';
import { signIn } from '../../src/api/auth';
import { streamPortalChat, type PortalStreamEvent } from '../../src/api/portal';
import { DEFAULT_TENANT_ID, LOOPBACK_FAKES, useStudio } from './harness';
import { configureProvider, createApp, flow, model, prompt, slowOpenAi, type SlowServer } from './runs-kit';
import { distribute, publish } from './portal-kit';
import { PASSWORD, setUpWorkspaces } from './workspace-fixture';

// The portal's own chat client (src/api/portal.ts) against the real server, through a proxy that cuts
// the answer's stream twice mid-answer, as a network blip or a restarting process would (issue 34):
// the client resumes with Last-Event-ID from the last frame it saw, says it is reconnecting meanwhile,
// and yields every event once.

const h = useStudio(LOOPBACK_FAKES);
let slow: SlowServer;
let proxy: http.Server;
let appId = '';
const CHUNKS = Array.from({ length: 12 }, (_, i) => `p${i} `);

/** What the proxy saw of each stream, and a way to drop its connection. */
const streams: { method: string; url: string; lastEventId?: string; cut: boolean; drop(): void }[] = [];

beforeAll(async () => {
  const f = await setUpWorkspaces(h, 'reconnect');
  slow = await slowOpenAi(CHUNKS, 30);
  await configureProvider(h, 'deepseek', slow.baseUrl);
  const doc = flow(
    [
      ['s', 'start'],
      ['llm', 'llm', { model: model('deepseek', 'deepseek-chat'), prompts: [prompt('user', '{{#sys.query#}}')] }],
      ['ans', 'answer', { answer: '{{#llm.text#}}' }],
    ],
    [
      ['s', 'llm'],
      ['llm', 'ans'],
    ],
    'chatflow',
  );
  const owner = { token: f.u.owner.token, workspaceId: f.wsA };
  appId = await createApp(h, f.u.member.token, f.wsA, 'Reconnecting chat', doc);
  await distribute(h, owner, appId, 'current_project', (await publish(h, owner, appId, '1.0.0')).id);

  const upstream = new URL(await h.studio.app.listen({ port: 0, host: '127.0.0.1' }));
  proxy = http.createServer((req, res) => {
    const out = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      if (!String(up.headers['content-type']).startsWith('text/event-stream')) return void up.pipe(res);
      streams.push({
        method: req.method!,
        url: req.url!,
        lastEventId: req.headers['last-event-id'] as string | undefined,
        cut: false,
        // The connection drops mid-answer: no end of the chunked body, the socket just goes.
        drop() {
          this.cut = true;
          res.destroy();
          up.destroy();
        },
      });
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  configureRequest({ baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` });
  await signIn({ tenantId: DEFAULT_TENANT_ID, username: 'reconnect_member', password: PASSWORD });
}, 60_000);
afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((r) => proxy?.close(r));
  await slow?.close();
});

describe('the portal chat client', () => {
  it('resumes a stream cut twice mid-answer with Last-Event-ID: every chunk once, then message_end', async () => {
    const events: PortalStreamEvent[] = [];
    const told: boolean[] = [];
    let chunks = 0;
    for await (const e of streamPortalChat(appId, { query: 'a story' }, { reaction: 'silent', onReconnecting: (on) => told.push(on) })) {
      events.push(e);
      // Cut where the client is: after it has the 3rd chunk, and again from the 7th on, once it reads the
      // resumed stream (chunks already in its buffer when the first cut came are still the first stream's).
      if (e.type !== 'answer_chunk') continue;
      chunks++;
      if (chunks === 3) streams[0]!.drop();
      else if (chunks >= 7 && streams.length === 2 && !streams[1]!.cut) streams[1]!.drop();
    }

    // Three streams: the message, then two resumes, each after the last frame id the client had.
    expect(streams.map((x) => [x.method, x.cut])).toEqual([
      ['POST', true],
      ['GET', true],
      ['GET', false],
    ]);
    const runId = (events[0] as { runId: string }).runId;
    expect(streams[1].url).toBe(`/api/v1/web/portal/${appId}/runs/${runId}/events`);
    expect(Number(streams[1].lastEventId)).toBeGreaterThan(0);
    expect(Number(streams[2].lastEventId)).toBeGreaterThan(Number(streams[1].lastEventId));

    const said = events.filter((e) => e.type === 'answer_chunk').map((e) => (e as { text: string }).text);
    expect(said).toEqual(CHUNKS);
    expect(events.filter((e) => e.type === 'run_created')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'run_finished')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'message_end', conversationId: expect.any(String) });
    // It said it was reconnecting, twice, and that the stream flowed again each time.
    expect(told).toEqual([true, false, true, false]);
  });
});
