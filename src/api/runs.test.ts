import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../app/session';
import { ApiError, configureRequest, setRequestInterceptors } from './request';
import { listRuns, readRunEvents, stopRun, streamDraftChat, streamDraftWorkflow, type RunStreamEvent } from './runs';
import { fail, ok, startServer, type TestServer } from './testing/http-server';

let server: TestServer;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const base = { runId: 'r1', seq: 0, at: 1 };
const frame = (e: { type: string; [k: string]: unknown }) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;

beforeAll(async () => {
  server = await startServer();
  configureRequest({ baseUrl: server.url });
});
afterAll(() => server.close());
beforeEach(() => {
  setRequestInterceptors(null);
  useSession.setState({ accessToken: 'tok-1', tenantId: 't1', workspaceId: 'ws-session' } as never);
});

async function collect(it: AsyncIterable<RunStreamEvent>): Promise<RunStreamEvent[]> {
  const out: RunStreamEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

describe('streamDraftChat', () => {
  it('posts the message with the session headers and yields the parsed events as they arrive, skipping unknown ones', async () => {
    server.handle(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const text = [
        frame({ type: 'run_created', runId: 'r1', conversationId: 'c1' }),
        frame({ type: 'answer_chunk', ...base, seq: 1, nodeId: 'answer', text: 'Hel' }),
        'event: future_thing\ndata: {"type":"future_thing"}\n\n',
        'event: answer_chunk\ndata: not json\n\n',
        frame({ type: 'answer_chunk', ...base, seq: 2, nodeId: 'answer', text: 'lo' }),
      ].join('');
      // Cut mid-frame, with pauses, so the client sees partial frames.
      for (let i = 0; i < text.length; i += 17) {
        res.write(text.slice(i, i + 17));
        await wait(1);
      }
      res.end();
    });
    const events = await collect(streamDraftChat('app-1', { query: 'hi', inputs: { topic: 'x' } }, { workspaceId: 'ws-9' }));
    expect(events.map((e) => e.type)).toEqual(['run_created', 'answer_chunk', 'answer_chunk']);
    expect(events.filter((e) => e.type === 'answer_chunk').map((e) => (e as { text: string }).text).join('')).toBe('Hello');
    const req = server.requests[0];
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/api/v1/console/apps/app-1/draft/chat-messages');
    expect(JSON.parse(req.body)).toEqual({ query: 'hi', inputs: { topic: 'x' } });
    expect(req.headers.authorization).toBe('Bearer tok-1');
    expect(req.headers['x-workspace-id']).toBe('ws-9');
    expect(req.headers.accept).toBe('text/event-stream');
  });

  it('throws the error envelope answered before the stream', async () => {
    server.handle((_req, res) => fail(res, 400, 'VALIDATION-1000', 'Parameter error'));
    const err = await collect(streamDraftWorkflow('app-1', { inputs: {} })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: 'VALIDATION-1000', msg: 'Parameter error' });
  });

  it('goes through the request interceptors: a 401 is refreshed and the stream call replayed', async () => {
    server.handle((req, res) => {
      if (req.headers.authorization !== 'Bearer tok-2') return fail(res, 401, 'AUTH-1001', 'expired');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(frame({ type: 'run_created', runId: 'r2' }));
    });
    setRequestInterceptors({
      onError: async (e, ctx, replay) => {
        if (e.status !== 401 || ctx.attempt > 0) throw e;
        useSession.setState({ accessToken: 'tok-2' } as never);
        return replay();
      },
    });
    const events = await collect(streamDraftChat('app-1', { query: 'hi' }));
    expect(events).toEqual([{ type: 'run_created', runId: 'r2' }]);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
  });

  it('stops reading when the signal aborts', async () => {
    let closed = false;
    server.handle((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(frame({ type: 'run_created', runId: 'r3' }));
      res.on('close', () => (closed = true));
      // Never ends by itself.
    });
    const ctrl = new AbortController();
    const seen: string[] = [];
    const err = await (async () => {
      for await (const e of streamDraftChat('app-1', { query: 'hi' }, { signal: ctrl.signal })) {
        seen.push(e.type);
        ctrl.abort();
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['run_created']);
    expect((err as Error).name).toBe('AbortError');
    for (let i = 0; i < 50 && !closed; i++) await wait(10);
    expect(closed).toBe(true);
  });
});

describe('a run stream whose connection drops mid-run', () => {
  const idFrame = (id: number, e: { type: string; [k: string]: unknown }) => `event: ${e.type}\nid: ${id}\ndata: ${JSON.stringify(e)}\n\n`;
  const chunk = (seq: number, text: string) => ({ type: 'answer_chunk', ...base, seq, nodeId: 'answer', text });
  const finished = { type: 'run_finished', ...base, seq: 6, elapsedMs: 5, outputs: {}, answer: 'Hello world!', usage: { promptTokens: 1, completionTokens: 3, totalTokens: 4 }, steps: 2 };
  const said = (events: RunStreamEvent[]) => events.map((e) => (e.type === 'answer_chunk' ? e.text : '')).join('');

  it('reconnects to the run with Last-Event-ID (again after a second drop) and yields every event once, in order', async () => {
    let resumes = 0;
    server.handle(async (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (req.method === 'POST') {
        res.write(idFrame(0, { type: 'run_created', runId: 'r1', conversationId: 'c1' }) + idFrame(1, chunk(0, 'Hel')) + idFrame(2, chunk(1, 'lo')));
        // Half a frame, then the connection is cut (the process restarted, a network blip).
        res.write('event: answer_chunk\nid: 3\ndata: {"ty');
        await wait(5);
        res.destroy();
        return;
      }
      if (++resumes === 1) {
        // The server may repeat a frame the client has (ids name what it already got): skipped.
        res.write(idFrame(2, chunk(1, 'lo')) + idFrame(3, chunk(2, ' wor')));
        await wait(5);
        res.destroy();
        return;
      }
      res.end(idFrame(4, chunk(3, 'ld')) + idFrame(5, chunk(4, '!')) + idFrame(6, finished));
    });
    const events = await collect(streamDraftChat('app-1', { query: 'hi' }, { workspaceId: 'ws-9' }));
    expect(said(events)).toBe('Hello world!');
    expect(events.map((e) => e.type)).toEqual(['run_created', 'answer_chunk', 'answer_chunk', 'answer_chunk', 'answer_chunk', 'answer_chunk', 'run_finished']);
    expect(server.requests.map((r) => [r.method, r.path, r.headers['last-event-id']])).toEqual([
      ['POST', '/api/v1/console/apps/app-1/draft/chat-messages', undefined],
      ['GET', '/api/v1/console/apps/app-1/runs/r1/events', '2'],
      ['GET', '/api/v1/console/apps/app-1/runs/r1/events', '3'],
    ]);
    expect(server.requests[1].headers['x-workspace-id']).toBe('ws-9');
  });

  it('throws the answer of a refused reconnect (a run the caller may not read)', async () => {
    server.handle(async (req, res) => {
      if (req.method === 'GET') return fail(res, 400, 'VALIDATION-1000', 'Parameter error');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(idFrame(0, { type: 'run_created', runId: 'r5' }));
      await wait(5);
      res.destroy();
    });
    const err = await collect(streamDraftWorkflow('app-1', { inputs: {} })).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, code: 'VALIDATION-1000' });
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'GET']);
  });
});

describe('the other run calls', () => {
  it('stops a run and lists runs with the period filter', async () => {
    server.handle((req, res) => (req.path.endsWith('/stop') ? ok(res, { stopped: true }) : ok(res, { list: [], total: 0, page: 1, page_size: 20 })));
    await expect(stopRun('a', 'r 1')).resolves.toEqual({ stopped: true });
    expect(server.requests[0].path).toBe('/api/v1/console/apps/a/runs/r%201/stop');
    await expect(listRuns('a', { period: '7d', keyword: 'x' })).resolves.toMatchObject({ total: 0 });
    const q = server.requests[1].query;
    expect([q.get('period'), q.get('keyword'), q.get('page'), q.get('page_size')]).toEqual(['7d', 'x', '1', '20']);
  });
});

describe('readRunEvents', () => {
  it('takes the type from the event name when the data lacks it', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('event: run_created\ndata: {"runId":"r9"}\n\n'));
        c.close();
      },
    });
    expect(await collect(readRunEvents(body))).toEqual([{ type: 'run_created', runId: 'r9' }]);
  });
});
