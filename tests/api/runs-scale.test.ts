import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK_FAKES, useStudio } from './harness';
import { configureProvider, createApp, flow, model, prompt, RUNS, slowOpenAi, type SlowServer } from './runs-kit';
import { distribute, publish } from './portal-kit';
import { createKey } from './public-kit';
import { readFrames, startCluster, type Cluster, type WireFrame } from './scale-kit';
import { expectCode, expectOk, MISSING, setUpWorkspaces, type Fixture } from './workspace-fixture';

// Runs across processes (issue 34): three servers on one database behind a loopback proxy (real
// server processes on a PostgreSQL server; on the embedded database, three apps of this process).
// A run started on one is stopped through another; a stream read from one resumes on another with
// Last-Event-ID, with no event lost or repeated.

const h = useStudio(LOOPBACK_FAKES);
let f: Fixture;
let slow: SlowServer;
let cluster: Cluster;
let appId: string;
let apiKey: string;

const CHUNKS = Array.from({ length: 30 }, (_, i) => `w${i} `);

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'scale');
  slow = await slowOpenAi(CHUNKS, 25);
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
  appId = await createApp(h, f.u.member.token, f.wsA, 'Across processes', doc);
  // Served in the portal to the project space's members, and through an app key.
  const owner = { token: f.u.owner.token, workspaceId: f.wsA };
  await distribute(h, owner, appId, 'current_project', (await publish(h, owner, appId, '1.0.0')).id);
  apiKey = (await createKey(h, owner, appId)).secret;
  cluster = await startCluster(h, 3, { WEFT_OUTBOUND_ALLOW: '127.0.0.1' });
}, 90_000);
afterAll(async () => {
  await cluster?.stop();
  await slow?.close();
});

const headers = (token = f.u.member.token): Record<string, string> => ({ authorization: `Bearer ${token}`, 'x-workspace-id': f.wsA });

/** A request through the proxy to server `i`. */
async function via(i: number, method: string, url: string, opts: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal; token?: string } = {}) {
  cluster.route(i);
  return fetch(cluster.url + url, {
    method,
    headers: { ...headers(opts.token), ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }), ...opts.headers },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: opts.signal,
  });
}

async function startChat(i: number, signal?: AbortSignal) {
  const res = await via(i, 'POST', `${RUNS(appId)}/draft/chat-messages`, { body: { query: 'a long story' }, signal });
  expect(res.status).toBe(200);
  return readFrames(res.body!);
}

const reply = async (res: Response) => ({ status: res.status, body: (await res.json()) as any, raw: undefined as never });

describe('runs across processes', () => {
  it('a run started on A is stopped through B; C reads it stored as stopped', async () => {
    const frames: WireFrame[] = [];
    let runId = '';
    let stop: any;
    for await (const fr of await startChat(0)) {
      frames.push(fr);
      if (fr.event.type === 'run_created') runId = fr.event.runId as string;
      if (fr.event.type === 'answer_chunk' && fr.event.text === 'w2 ') stop = expectOk(await reply(await via(1, 'POST', `${RUNS(appId)}/runs/${runId}/stop`)));
    }
    expect(stop).toEqual({ stopped: true });
    expect(frames.at(-1)!.event).toMatchObject({ type: 'run_failed', status: 'stopped' });
    expect(frames.filter((x) => x.event.type === 'answer_chunk').length).toBeLessThan(CHUNKS.length);
    const detail = expectOk(await reply(await via(2, 'GET', `${RUNS(appId)}/runs/${runId}`)));
    expect(detail.run.status).toBe('stopped');
    // Once it has ended no process stops it again.
    expect(expectOk(await reply(await via(2, 'POST', `${RUNS(appId)}/runs/${runId}/stop`)))).toEqual({ stopped: false });
  });

  it('a stream read from A resumes on C after a reconnect with Last-Event-ID: nothing lost, nothing repeated', async () => {
    const controller = new AbortController();
    const first: WireFrame[] = [];
    for await (const fr of await startChat(0, controller.signal)) {
      first.push(fr);
      if (fr.event.type === 'answer_chunk' && fr.event.text === 'w4 ') break;
    }
    controller.abort();
    const runId = first[0].event.runId as string;
    const last = first.at(-1)!.id!;
    const res = await via(2, 'GET', `${RUNS(appId)}/runs/${runId}/events`, { headers: { 'last-event-id': String(last) } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const rest: WireFrame[] = [];
    for await (const fr of readFrames(res.body!)) rest.push(fr);
    const all = [...first, ...rest];
    // Every event once, in order: ids 0 (run_created), 1, 2, … with no gap and no repeat.
    expect(all.map((x) => x.id)).toEqual(all.map((_, i) => i));
    expect(rest.at(-1)!.event).toMatchObject({ type: 'run_finished', answer: CHUNKS.join('') });
    const said = all.filter((x) => x.event.type === 'answer_chunk').map((x) => x.event.text).join('');
    expect(said).toBe(CHUNKS.join(''));

    // The whole stream again from the start (no Last-Event-ID), now that the run has ended, from B.
    const again = await via(1, 'GET', `${RUNS(appId)}/runs/${runId}/events`);
    const replay: WireFrame[] = [];
    for await (const fr of readFrames(again.body!)) replay.push(fr);
    expect(replay.map((x) => x.event)).toEqual(all.map((x) => x.event));
  });

  it('a single-node run started on A is stopped through B', async () => {
    const runId = randomUUID();
    const going = via(0, 'POST', `${RUNS(appId)}/draft/nodes/llm/run`, { body: { inputs: { 'sys.query': 'a long story' }, run_id: runId } });
    let stopped = false;
    for (let i = 0; i < 100 && !stopped; i++) {
      const r = await reply(await via(1, 'POST', `${RUNS(appId)}/runs/${runId}/stop`));
      stopped = r.status === 200 && r.body.data.stopped;
      if (!stopped) await new Promise((res) => setTimeout(res, 30));
    }
    expect(stopped).toBe(true);
    expect(expectOk(await reply(await going))).toMatchObject({ runId, status: 'stopped' });
  });

  it('resuming refuses what the caller may not read and a malformed Last-Event-ID, on any process', async () => {
    expectCode(await reply(await via(1, 'GET', `${RUNS(appId)}/runs/${MISSING}/events`)), 400, 'VALIDATION-1000');
    const [run] = expectOk(await reply(await via(2, 'GET', `${RUNS(appId)}/runs?page=1&page_size=1`))).list;
    expectCode(await reply(await via(2, 'GET', `${RUNS(appId)}/runs/${run.id}/events`, { token: f.u.outsider.token })), 400, 'VALIDATION-1000');
    expectCode(await reply(await via(0, 'GET', `${RUNS(appId)}/runs/${run.id}/events`, { headers: { 'last-event-id': 'x1' } })), 400, 'VALIDATION-1000');
  });

  /** Reads a stream until `stop` says so (then drops the connection), or to its end. */
  async function readUntil(res: Response, stop: (fr: WireFrame) => boolean, controller: AbortController) {
    expect(res.status).toBe(200);
    const got: WireFrame[] = [];
    for await (const fr of readFrames(res.body!)) {
      got.push(fr);
      if (stop(fr)) break;
    }
    controller.abort();
    return got;
  }
  const readAll = (res: Response) => readUntil(res, () => false, new AbortController());
  const ids = (frames: WireFrame[]) => frames.map((x) => x.id!);
  const increasing = (list: number[]) => list.every((id, i) => i === 0 || id > list[i - 1]);

  it('a portal chat stream read from A resumes on C with Last-Event-ID: the portal frames, each once, then message_end', async () => {
    const controller = new AbortController();
    const url = `/api/v1/web/portal/${appId}`;
    const started = await via(0, 'POST', `${url}/chat-messages`, { body: { query: 'a long story' }, signal: controller.signal });
    const first = await readUntil(started, (fr) => fr.event.type === 'answer_chunk' && fr.event.text === 'w4 ', controller);
    const runId = first[0].event.runId as string;
    expect(first[0].id).toBe(0);
    const res = await via(2, 'GET', `${url}/runs/${runId}/events`, { headers: { 'last-event-id': String(first.at(-1)!.id) } });
    const rest = await readAll(res);
    const all = [...first, ...rest];
    expect(increasing(ids(all))).toBe(true);
    expect(all.filter((x) => x.event.type === 'answer_chunk').map((x) => x.event.text).join('')).toBe(CHUNKS.join(''));
    // What the portal hides stays hidden on the resumed stream too.
    expect(rest.some((x) => x.event.type === 'node_chunk')).toBe(false);
    for (const x of rest.filter((y) => y.event.type === 'node_started')) expect(x.event.inputs).toEqual({});
    const [finished, end] = rest.slice(-2);
    expect(finished.event).toMatchObject({ type: 'run_finished', answer: CHUNKS.join('') });
    expect(end).toMatchObject({ id: finished.id! + 1, event: { type: 'message_end', messageId: first[0].event.messageId, conversationId: first[0].event.conversationId, citations: [] } });
    expect(end.event.usage).toEqual(finished.event.usage);
    // After message_end nothing is left; the whole stream again (no Last-Event-ID) from B is the same frames.
    const none = await readAll(await via(1, 'GET', `${url}/runs/${runId}/events`, { headers: { 'last-event-id': String(end.id) } }));
    expect(none).toEqual([]);
    expect(await readAll(await via(1, 'GET', `${url}/runs/${runId}/events`))).toEqual(all);
    // Another user of the app, a user who may not use it, an unknown run, a bad Last-Event-ID: refused.
    expectCode(await reply(await via(1, 'GET', `${url}/runs/${runId}/events`, { token: f.u.admin.token })), 400, 'VALIDATION-1000');
    expectCode(await reply(await via(2, 'GET', `${url}/runs/${runId}/events`, { token: f.u.outsider.token })), 400, 'VALIDATION-1000');
    expectCode(await reply(await via(0, 'GET', `${url}/runs/${MISSING}/events`)), 400, 'VALIDATION-1000');
    expectCode(await reply(await via(0, 'GET', `${url}/runs/${runId}/events`, { headers: { 'last-event-id': '-1' } })), 400, 'VALIDATION-1000');
  });

  it('a /v1 chat-messages stream read from B resumes on C with Last-Event-ID: Dify frames each once, then workflow_finished and message_end', async () => {
    const controller = new AbortController();
    const auth = { authorization: `Bearer ${apiKey}` };
    const started = await via(1, 'POST', '/v1/chat-messages', { headers: auth, body: { query: 'a long story', inputs: {}, user: 'alice', response_mode: 'streaming' }, signal: controller.signal });
    const first = await readUntil(started, (fr) => fr.event.event === 'message' && fr.event.answer === 'w4 ', controller);
    const taskId = first[0].event.task_id as string;
    expect(first[0].event.event).toBe('workflow_started');
    const events = `/v1/chat-messages/${taskId}/events?user=alice`;
    const rest = await readAll(await via(2, 'GET', events, { headers: { ...auth, 'last-event-id': String(first.at(-1)!.id) } }));
    const all = [...first, ...rest];
    expect(increasing(ids(all))).toBe(true);
    expect(all.filter((x) => x.event.event === 'message').map((x) => x.event.answer).join('')).toBe(CHUNKS.join(''));
    expect(rest.slice(-2).map((x) => x.event.event)).toEqual(['workflow_finished', 'message_end']);
    expect(rest.at(-1)!.event).toMatchObject({ task_id: taskId, id: first[0].event.message_id, conversation_id: first[0].event.conversation_id });
    expect(rest.at(-2)!.event.data).toMatchObject({ id: taskId, status: 'succeeded' });
    // Resuming after workflow_finished gives only message_end.
    const tail = await readAll(await via(0, 'GET', events, { headers: { ...auth, 'last-event-id': String(rest.at(-2)!.id) } }));
    expect(tail).toEqual(rest.slice(-1));
    // Another end user, a workflow route for a chat app, an unknown task, no key: refused as Dify refuses.
    expect((await via(0, 'GET', `/v1/chat-messages/${taskId}/events?user=bob`, { headers: auth })).status).toBe(404);
    expect((await via(0, 'GET', `/v1/workflows/tasks/${taskId}/events?user=alice`, { headers: auth })).status).toBe(400);
    expect((await via(0, 'GET', `/v1/chat-messages/${MISSING}/events?user=alice`, { headers: auth })).status).toBe(404);
    expect((await via(0, 'GET', events, { token: 'x' })).status).toBe(401);
  });
});
