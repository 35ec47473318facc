import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStudio } from './harness';
import { configureProvider, createApp, flow, model, parseSse, prompt, RUNS, slowOpenAi, type SlowServer } from './runs-kit';
import { expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// Secret environment variables (issue 20, finding 7): nodes get the clear value, but it appears
// nowhere a member can read it: not in the SSE stream, the stored rows (read here straight from the
// tables), the log and trace answers, the single-node answer, error messages or messages.

const h = useStudio();
let f: Fixture;
let echo: { url: string; seen: { url: string; authorization: string }[]; close(): Promise<void> };
let slow: SlowServer;

// Characters that URL and JSON encoding change, so the encoded forms are checked too.
const SECRET = 'sk-live-Zq9!x/y+w=s3cr"et';
const FORMS = [SECRET, encodeURIComponent(SECRET), new URL(`http://h/?${SECRET}`).search.slice(1), JSON.stringify(SECRET).slice(1, -1), 'Zq9!x/y+w'];
const env = [{ id: 'e1', name: 'TOKEN', type: 'secret', value: SECRET, description: '' }];
const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });

function expectNoSecret(text: string, where: string) {
  for (const form of FORMS) expect(text.includes(form), `${where} holds the secret (${form}):\n${text.slice(0, 2000)}`).toBe(false);
}

/** Every stored row of the app's runs, as text, read from the tables themselves. */
async function storedRows(appId: string): Promise<string> {
  const db = h.studio.ctx.db;
  const q = async (query: ReturnType<typeof sql>) => JSON.stringify(((await db.execute(query)) as unknown as { rows: unknown[] }).rows);
  return [
    await q(sql`SELECT * FROM runs WHERE app_id = ${appId}`),
    await q(sql`SELECT n.* FROM node_executions n JOIN runs r ON r.id = n.run_id WHERE r.app_id = ${appId}`),
    await q(sql`SELECT m.* FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.app_id = ${appId}`),
    await q(sql`SELECT * FROM conversations WHERE app_id = ${appId}`),
  ].join('\n');
}

async function echoServer() {
  const seen: { url: string; authorization: string }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: String(req.headers.authorization ?? '') });
    res.writeHead(200, { 'content-type': 'application/json' });
    // The far end answers with what it was sent: the secret comes back in the node's outputs.
    res.end(JSON.stringify({ url: req.url, authorization: req.headers.authorization }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const workflowDoc = () => {
  const doc = flow(
    [
      ['s', 'start'],
      ['t', 'template-transform', { inputs: [{ name: 'token', selector: ['env', 'TOKEN'] }], template: 'Bearer {{ token }}' }],
      [
        'h',
        'http-request',
        { method: 'get', url: `${echo.url}/echo?k={{#env.TOKEN#}}`, headers: [{ key: 'Authorization', value: 'Bearer {{#env.TOKEN#}}' }] },
      ],
      [
        'c',
        'code',
        {
          inputs: [{ name: 'token', selector: ['env', 'TOKEN'] }],
          code: 'function main({ token }) { return { length: token.length, nested: { list: [token], ["key " + token]: "x" } } }',
          outputs: [
            { name: 'length', type: 'number' },
            { name: 'nested', type: 'object' },
          ],
        },
      ],
      [
        'e',
        'end',
        {
          outputs: [
            { name: 'bearer', selector: ['t', 'output'] },
            { name: 'echo', selector: ['h', 'body'] },
            { name: 'length', selector: ['c', 'length'] },
            { name: 'nested', selector: ['c', 'nested'] },
          ],
        },
      ],
    ],
    [
      ['s', 't'],
      ['t', 'h'],
      ['h', 'c'],
      ['c', 'e'],
    ],
  );
  doc.variables.env = env as never;
  return doc;
};

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'secrets');
  echo = await echoServer();
  // The echo server is on loopback: open exactly it in the outbound policy (closed by default).
  h.allowOutbound(echo.url);
  // The secret comes back from the "model" in pieces: the stream must not show it whole or in parts.
  slow = await slowOpenAi(['Your key is sk-live-Zq', '9!x/y+w=s3c', 'r"et, keep it.'], 5);
  await configureProvider(h, 'deepseek', slow.baseUrl);
  // The echo server is on loopback.
  h.studio.ctx.settings.httpAllowPrivate = true;
});
afterAll(async () => {
  await echo?.close();
  await slow?.close();
});

describe('secret environment values in runs', () => {
  it('a workflow run uses the clear value but streams, stores and answers it masked', async () => {
    const app = await createApp(h, f.u.member.token, f.wsA, 'Secret flow', workflowDoc());
    const r = await h.call('POST', `${RUNS(app)}/draft/workflow-runs`, { ...member(), body: { inputs: {} } });
    const events = parseSse(r.raw.body);
    // The nodes had the clear value.
    const seen = echo.seen.at(-1)!;
    expect(decodeURIComponent(seen.url.replace('/echo?k=', ''))).toBe(SECRET);
    expect(seen.authorization).toBe(`Bearer ${SECRET}`);
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', outputs: { bearer: 'Bearer ******', length: SECRET.length, nested: { list: ['******'], 'key ******': 'x' } } });
    expectNoSecret(r.raw.body, 'the SSE stream');
    expect(r.raw.body).toContain('******');

    const runId = (events[0] as { runId: string }).runId;
    expectNoSecret(await storedRows(app), 'the stored rows');
    const detail = await h.call('GET', `${RUNS(app)}/runs/${runId}`, member());
    expect(detail.body.data.nodes.find((n: { node_id: string }) => n.node_id === 'h').inputs).toBeTruthy();
    expectNoSecret(detail.raw.body, 'the trace');
    expectNoSecret((await h.call('GET', `${RUNS(app)}/runs`, member())).raw.body, 'the run log');
    // The log's keyword search does not find runs by the secret either.
    expect(expectOk(await h.call('GET', `${RUNS(app)}/runs`, { ...member(), query: { keyword: SECRET } })).total).toBe(0);
  });

  it('a failing node: the error message is masked in the stream and the stored run', async () => {
    const doc = workflowDoc();
    doc.nodes.find((n) => n.id === 'c')!.config.code = 'function main({ token }) { throw new Error("refused " + token) }';
    const app = await createApp(h, f.u.member.token, f.wsA, 'Secret failure', doc);
    const r = await h.call('POST', `${RUNS(app)}/draft/workflow-runs`, { ...member(), body: { inputs: {} } });
    const last = parseSse(r.raw.body).at(-1) as { type: string; error: { message: string } };
    expect(last.type).toBe('run_failed');
    expect(last.error.message).toContain('refused ******');
    expectNoSecret(r.raw.body, 'the SSE stream');
    expectNoSecret(await storedRows(app), 'the stored rows');
  });

  it('a chat run: the answer, the streamed model text, the message and the conversation variables are masked', async () => {
    const doc = flow(
      [
        ['s', 'start'],
        ['llm', 'llm', { model: model('deepseek', 'deepseek-chat'), prompts: [prompt('user', 'key {{#env.TOKEN#}}: {{#sys.query#}}')] }],
        ['set', 'variable-assigner', { assignments: [{ target: ['conversation', 'kept'], operation: 'over-write', source: 'variable', selector: ['env', 'TOKEN'] }] }],
        ['ans', 'answer', { answer: 'Token {{#env.TOKEN#}}. Model: {{#llm.text#}}' }],
      ],
      [
        ['s', 'llm'],
        ['llm', 'set'],
        ['set', 'ans'],
      ],
      'chatflow',
      { conversation: [{ id: 'v1', name: 'kept', type: 'string', value: '', description: '' }] },
    );
    doc.variables.env = env as never;
    const app = await createApp(h, f.u.member.token, f.wsA, 'Secret chat', doc);
    const r = await h.call('POST', `${RUNS(app)}/draft/chat-messages`, { ...member(), body: { query: 'hello' } });
    const events = parseSse(r.raw.body);
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', answer: 'Token ******. Model: Your key is ******, keep it.' });
    // The reply streamed in chunks says the same as the end event.
    const streamed = events.filter((e) => e.type === 'answer_chunk').map((e) => (e as { text: string }).text).join('');
    expect(streamed).toBe('Token ******. Model: Your key is ******, keep it.');
    // Not even the piece of it the model sent first: held back until the next piece showed it whole.
    expect(r.raw.body).not.toContain('sk-live');
    const modelText = events.filter((e) => e.type === 'node_chunk').map((e) => (e as { text: string }).text).join('');
    expect(modelText).toBe('Your key is ******, keep it.');
    expectNoSecret(r.raw.body, 'the SSE stream');
    expectNoSecret(await storedRows(app), 'the stored rows');
    const conversationId = (events[0] as { conversationId: string }).conversationId;
    expectNoSecret((await h.call('GET', `${RUNS(app)}/conversations/${conversationId}/messages`, member())).raw.body, 'the messages');
    expectNoSecret((await h.call('GET', `${RUNS(app)}/conversations/${conversationId}/variables`, member())).raw.body, 'the conversation variables');
  });

  it('a single-node run answers and stores the node masked', async () => {
    const app = await createApp(h, f.u.member.token, f.wsA, 'Secret node', workflowDoc());
    const before = echo.seen.length;
    const r = await h.call('POST', `${RUNS(app)}/draft/nodes/h/run`, { ...member(), body: { inputs: {} } });
    const data = expectOk(r);
    expect(echo.seen.length).toBe(before + 1);
    expect(echo.seen.at(-1)!.authorization).toBe(`Bearer ${SECRET}`);
    expect(data.status).toBe('succeeded');
    expect(JSON.stringify(data.outputs)).toContain('******');
    expectNoSecret(r.raw.body, 'the single-node answer');
    expectNoSecret(await storedRows(app), 'the stored rows');
    expectNoSecret((await h.call('GET', `${RUNS(app)}/runs/${data.runId}`, member())).raw.body, 'the trace');
  });
});
