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
