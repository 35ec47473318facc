import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunStreamEvent } from '../../schemas/run-api';
import { ANSWER_CHUNKS, fakeOpenAi, type FakeServer } from './fake-providers';
import { useStudio } from './harness';
import { configureProvider, createApp, flow, model, parseSse, prompt, RUNS, textInput } from './runs-kit';
import { expectCode, expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// The runs API against the embedded database and a fake OpenAI-compatible provider speaking the
// real protocol: chat and workflow runs streamed as SSE, what they store, single-node runs, the code
// node in the real sandbox. Stop, logs, conversations and refusals: runs-log.test.ts.

const h = useStudio();
let f: Fixture;
let fake: FakeServer;
let chatApp: string;
let workflowApp: string;

const chatDoc = flow(
  [
    ['s', 'start'],
    ['llm', 'llm', { model: model('openai', 'gpt-4o-mini'), prompts: [prompt('system', 'Be brief.'), prompt('user', '{{#sys.query#}}')], memoryEnabled: true, memoryWindow: 5 }],
    ['ans', 'answer', { answer: 'Bot: {{#llm.text#}}.' }],
  ],
  [
    ['s', 'llm'],
    ['llm', 'ans'],
  ],
  'chatflow',
);

const workflowDoc = flow(
  [
    ['s', 'start', { variables: [textInput('name')] }],
    ['t', 'template-transform', { inputs: [{ name: 'name', selector: ['s', 'name'] }], template: 'Hello {{ name | upper }}' }],
    [
      'c',
      'code',
      {
        inputs: [{ name: 'greeting', selector: ['t', 'output'] }],
        code: 'function main({ greeting }) { return { length: greeting.length, words: greeting.split(" ") } }',
        outputs: [
          { name: 'length', type: 'number' },
          { name: 'words', type: 'array[string]' },
        ],
        timeoutSeconds: 5,
      },
    ],
    [
      'e',
      'end',
      {
        outputs: [
          { name: 'greeting', selector: ['t', 'output'] },
          { name: 'length', selector: ['c', 'length'] },
          { name: 'words', selector: ['c', 'words'] },
        ],
      },
    ],
  ],
  [
    ['s', 't'],
    ['t', 'c'],
    ['c', 'e'],
  ],
);

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'runs');
  fake = await fakeOpenAi();
  await configureProvider(h, 'openai', fake.baseUrl);
  chatApp = await createApp(h, f.u.member.token, f.wsA, 'Chat', chatDoc);
  workflowApp = await createApp(h, f.u.member.token, f.wsA, 'Flow', workflowDoc);
});
afterAll(() => fake?.close());

const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });
const of = <T extends RunStreamEvent['type']>(events: RunStreamEvent[], type: T) => events.filter((e): e is Extract<RunStreamEvent, { type: T }> => e.type === type);

async function chat(body: Record<string, unknown>) {
  const r = await h.call('POST', `${RUNS(chatApp)}/draft/chat-messages`, { ...member(), body });
  expect(r.status, r.raw.body).toBe(200);
  expect(r.raw.headers['content-type']).toMatch(/^text\/event-stream/);
  return parseSse(r.raw.body);
}

describe('POST /draft/chat-messages', () => {
  let conversationId: string;

  it('streams run_created, then the engine events with the provider tokens as answer chunks in order, and ends with run_finished', async () => {
    const events = await chat({ query: 'Say hello' });
    const created = events[0];
    expect(created).toMatchObject({ type: 'run_created', runId: expect.any(String), conversationId: expect.any(String), messageId: expect.any(String) });
    if (created.type !== 'run_created') throw new Error('first event');
    conversationId = created.conversationId!;
    expect(events[1]).toMatchObject({ type: 'run_started', runId: created.runId, seq: 0, mode: 'chatflow' });
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', answer: `Bot: ${ANSWER_CHUNKS.join('')}.`, usage: { promptTokens: 12, completionTokens: 5, totalTokens: 17 } });
    // Token by token, as the fake streamed them, between the answer's own text.
    expect(of(events, 'answer_chunk').map((e) => e.text)).toEqual(['Bot: ', ...ANSWER_CHUNKS, '.']);
    expect(of(events, 'node_chunk').map((e) => e.text)).toEqual(ANSWER_CHUNKS);
    // Every engine event is passed on, in order.
    expect(events.slice(1).map((e) => (e as { seq: number }).seq)).toEqual(events.slice(1).map((_, i) => i));
    // The provider got the query through the tenant's credentials.
    expect(fake.requests.at(-1)!.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Say hello' },
    ]);

    const detail = expectOk(await h.call('GET', `${RUNS(chatApp)}/runs/${created.runId}`, member()));
    expect(detail.run).toMatchObject({
      id: created.runId,
      status: 'succeeded',
      mode: 'chatflow',
      source: 'draft',
      query: 'Say hello',
      answer: 'Bot: Hello, world.',
      conversation_id: conversationId,
      usage: { promptTokens: 12, completionTokens: 5, totalTokens: 17 },
      steps: 3,
      created_by: f.u.member.id,
      created_by_name: 'runs_member',
    });
    expect(detail.run.finished_at).toEqual(expect.any(String));
    expect(detail.nodes.map((n: { node_id: string; status: string }) => `${n.node_id}:${n.status}`)).toEqual(['s:succeeded', 'llm:succeeded', 'ans:succeeded']);
    expect(detail.nodes[1]).toMatchObject({ kind: 'llm', outputs: { text: 'Hello, world.'.slice(0, -1) }, usage: { totalTokens: 17 }, parent_id: null, index: null, scope: [] });

    const convs = expectOk(await h.call('GET', `${RUNS(chatApp)}/conversations`, member()));
    expect(convs).toMatchObject({ total: 1, page: 1, page_size: 20 });
    expect(convs.list[0]).toMatchObject({ id: conversationId, name: 'Say hello', message_count: 1, created_by: f.u.member.id, last_message_at: expect.any(String) });
    const msgs = expectOk(await h.call('GET', `${RUNS(chatApp)}/conversations/${conversationId}/messages`, member()));
    expect(msgs.list).toEqual([
      expect.objectContaining({ id: created.messageId, query: 'Say hello', answer: 'Bot: Hello, world.', runId: created.runId, status: 'succeeded', usage: { promptTokens: 12, completionTokens: 5, totalTokens: 17 } }),
    ]);
  });

  it('a second message in the same conversation sends the earlier turn as memory', async () => {
    const events = await chat({ query: 'And again?', conversation_id: conversationId });
    expect(events[0]).toMatchObject({ type: 'run_created', conversationId });
    expect(events.at(-1)!.type).toBe('run_finished');
    expect(fake.requests.at(-1)!.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Say hello' },
      { role: 'assistant', content: 'Bot: Hello, world.' },
      { role: 'user', content: 'And again?' },
    ]);
    const msgs = expectOk(await h.call('GET', `${RUNS(chatApp)}/conversations/${conversationId}/messages`, member()));
    expect(msgs.list.map((m: { query: string }) => m.query)).toEqual(['Say hello', 'And again?']);
    const convs = expectOk(await h.call('GET', `${RUNS(chatApp)}/conversations`, member()));
    expect(convs.list[0]).toMatchObject({ id: conversationId, message_count: 2 });
  });

  it('a provider error fails the llm node and the run, stored with its code', async () => {
    const broken = flow(
      [
        ['s', 'start'],
        ['llm', 'llm', { model: model('openai', 'missing-model'), prompts: [prompt('user', '{{#sys.query#}}')] }],
        ['ans', 'answer', { answer: '{{#llm.text#}}' }],
      ],
      [
        ['s', 'llm'],
        ['llm', 'ans'],
      ],
      'chatflow',
    );
    // A custom model the fake does not know: 404 from the provider.
    expectOk(
      await h.call('POST', '/api/v1/admin/models/model-providers/openai/models/model-custom', {
        token: h.adminToken,
        body: { model: 'missing-model', model_type: 'llm', features: ['streaming'] },
      }),
    );
    const app = await createApp(h, f.u.member.token, f.wsA, 'Broken chat', broken);
    const r = await h.call('POST', `${RUNS(app)}/draft/chat-messages`, { ...member(), body: { query: 'hi' } });
    const events = parseSse(r.raw.body);
    const last = events.at(-1)!;
    expect(last).toMatchObject({ type: 'run_failed', status: 'failed', error: { code: 'MODEL-model_not_found', nodeId: 'llm' } });
    const detail = expectOk(await h.call('GET', `${RUNS(app)}/runs/${(events[0] as { runId: string }).runId}`, member()));
    expect(detail.run).toMatchObject({ status: 'failed', error: { code: 'MODEL-model_not_found' } });
    expect(detail.nodes.find((n: { node_id: string }) => n.node_id === 'llm')).toMatchObject({ status: 'failed', error: { code: 'MODEL-model_not_found' } });
  });
});

describe('POST /draft/workflow-runs', () => {
  it('runs the workflow with the inputs, the code node in the real sandbox, and stores the trace', async () => {
    const r = await h.call('POST', `${RUNS(workflowApp)}/draft/workflow-runs`, { ...member(), body: { inputs: { name: 'ada lovelace' } } });
    expect(r.status, r.raw.body).toBe(200);
    const events = parseSse(r.raw.body);
    expect(events[0]).toEqual({ type: 'run_created', runId: expect.any(String) });
    const last = events.at(-1)!;
    expect(last).toMatchObject({ type: 'run_finished', outputs: { greeting: 'Hello ADA LOVELACE', length: 18, words: ['Hello', 'ADA', 'LOVELACE'] } });
    const runId = (events[0] as { runId: string }).runId;
    const detail = expectOk(await h.call('GET', `${RUNS(workflowApp)}/runs/${runId}`, member()));
    expect(detail.run).toMatchObject({ status: 'succeeded', mode: 'workflow', inputs: { name: 'ada lovelace' }, conversation_id: null, steps: 4 });
    expect(detail.nodes.map((n: { node_id: string }) => n.node_id)).toEqual(['s', 't', 'c', 'e']);
    expect(detail.nodes[2]).toMatchObject({ kind: 'code', status: 'succeeded', inputs: expect.any(Object), outputs: { length: 18 } });
  });

  it('code that throws fails the code node with the sandbox error and its line', async () => {
    const doc = structuredClone(workflowDoc);
    doc.nodes.find((n) => n.id === 'c')!.config.code = 'function main() {\n  throw new Error("nope")\n}';
    const app = await createApp(h, f.u.member.token, f.wsA, 'Throwing flow', doc);
    const events = parseSse((await h.call('POST', `${RUNS(app)}/draft/workflow-runs`, { ...member(), body: { inputs: { name: 'x' } } })).raw.body);
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', status: 'failed', error: { code: 'SANDBOX-ERROR', nodeId: 'c' } });
    expect((events.at(-1) as { error: { message: string } }).error.message).toMatch(/nope.*line 2/);
  });

  it("a code node queued behind its user's other runs says so in the stream, and runs once a sandbox is free", async () => {
    const doc = structuredClone(workflowDoc);
    doc.nodes.find((n) => n.id === 'c')!.config.code =
      'function main({ greeting }) { const end = Date.now() + 300; while (Date.now() < end) {} return { length: greeting.length, words: [] } }';
    const app = await createApp(h, f.u.member.token, f.wsA, 'Spinning flow', doc);
    // One more run than the user may have in the sandbox at once: at least one waits.
    const n = h.studio.ctx.sandbox.limits.maxPerUser + 1;
    const bodies = await Promise.all(
      Array.from({ length: n }, () => h.call('POST', `${RUNS(app)}/draft/workflow-runs`, { ...member(), body: { inputs: { name: 'x' } } })),
    );
    const runs = bodies.map((b) => parseSse(b.raw.body));
    for (const events of runs) expect(events.at(-1)).toMatchObject({ type: 'run_finished' });
    const waited = runs.find((events) => events.some((e) => e.type === 'node_waiting'))!;
    expect(waited).toBeDefined();
    const waits = waited.filter((e) => e.type === 'node_waiting');
    expect(waits[0]).toMatchObject({ nodeId: 'c', reason: 'sandbox', waiting: true, ahead: expect.any(Number) });
    expect(waits.at(-1)).toMatchObject({ nodeId: 'c', waiting: false, waitedMs: expect.any(Number) });
    // In order: started, waited, then finished.
    const at = (type: string) => waited.findIndex((e) => e.type === type && 'nodeId' in e && e.nodeId === 'c');
    expect(at('node_started')).toBeLessThan(at('node_waiting'));
    expect(waited.indexOf(waits.at(-1)!)).toBeLessThan(at('node_finished'));
  });

  it('a missing required input fails the start node (the run is stored as failed)', async () => {
    const events = parseSse((await h.call('POST', `${RUNS(workflowApp)}/draft/workflow-runs`, { ...member(), body: { inputs: {} } })).raw.body);
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'START-INPUT-REQUIRED' } });
  });
});

describe('services and environment of a run', () => {
  it('secret environment variables reach the run decrypted; http-request goes through the guarded client (loopback refused)', async () => {
    const doc = flow(
      [
        ['s', 'start'],
        ['t', 'template-transform', { inputs: [{ name: 'token', selector: ['env', 'TOKEN'] }], template: 'len={{ token | length }}' }],
        // A loopback port the allow-list does not open (the fake provider's is open).
        ['h', 'http-request', { method: 'get', url: 'http://127.0.0.1:9/models' }],
        [
          'e',
          'end',
          {
            outputs: [
              { name: 'len', selector: ['t', 'output'] },
              { name: 'why', selector: ['h', 'error_code'] },
            ],
          },
        ],
      ],
      [
        ['s', 't'],
        ['t', 'h'],
        ['h', 'e'],
      ],
    );
    doc.variables.env = [{ id: 'e1', name: 'TOKEN', type: 'secret', value: 's3cret-value', description: '' }] as never;
    // The request fails; its error goes down the default-value path so the run can show the code.
    doc.nodes.find((n) => n.id === 'h')!.config.errorStrategy = 'default-value';
    const app = await createApp(h, f.u.member.token, f.wsA, 'Env and http', doc);
    const events = parseSse((await h.call('POST', `${RUNS(app)}/draft/workflow-runs`, { ...member(), body: { inputs: {} } })).raw.body);
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', outputs: { len: 'len=12', why: 'NETWORK-1000' } });
  });
});

describe('trace of iterations', () => {
  it('node executions inside an iteration carry their parent, scope and round index, in order', async () => {
    const doc = flow(
      [
        ['s', 'start', { variables: [textInput('list')] }],
        ['split', 'code', { inputs: [{ name: 'text', selector: ['s', 'list'] }], code: 'function main({ text }) { return { parts: text.split(",") } }', outputs: [{ name: 'parts', type: 'array[string]' }] }],
        ['it', 'iteration', { iterator: ['split', 'parts'], output: ['t', 'output'] }],
        ['it-start', 'iteration-start', {}, 'it'],
        ['t', 'template-transform', { inputs: [{ name: 'item', selector: ['it', 'item'] }], template: '<{{ item }}>' }, 'it'],
        ['e', 'end', { outputs: [{ name: 'out', selector: ['it', 'output'] }] }],
      ],
      [
        ['s', 'split'],
        ['split', 'it'],
        ['it-start', 't'],
        ['it', 'e'],
      ],
    );
    const app = await createApp(h, f.u.member.token, f.wsA, 'Iterating flow', doc);
    const events = parseSse((await h.call('POST', `${RUNS(app)}/draft/workflow-runs`, { ...member(), body: { inputs: { list: 'a,b' } } })).raw.body);
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', outputs: { out: ['<a>', '<b>'] } });
    expect(of(events, 'iteration_next').map((e) => e.index)).toEqual([0, 1]);
    const detail = expectOk(await h.call('GET', `${RUNS(app)}/runs/${(events[0] as { runId: string }).runId}`, member()));
    const iteration = detail.nodes.find((n: { node_id: string }) => n.node_id === 'it');
    const rounds = detail.nodes.filter((n: { node_id: string }) => n.node_id === 't');
    expect(rounds).toHaveLength(2);
    rounds.forEach((n: Record<string, unknown>, i: number) => {
      expect(n).toMatchObject({ parent_id: 'it', parent_execution_id: iteration.execution_id, index: i, outputs: { output: ['<a>', '<b>'][i] } });
      expect(n.scope).toEqual([{ containerId: 'it', executionId: iteration.execution_id, index: i }]);
    });
    // In the order they started: the iteration before its rounds, the end after.
    const order = detail.nodes.map((n: { node_id: string }) => n.node_id).filter((id: string) => id !== 'it-start');
    expect(order).toEqual(['s', 'split', 'it', 't', 't', 'e']);
    expect(detail.nodes.map((n: { seq: number }) => n.seq)).toEqual([...detail.nodes.map((n: { seq: number }) => n.seq)].sort((a, b) => a - b));
  });
});

describe('POST /draft/nodes/:node_id/run', () => {
  it("runs one node with its references taken from the inputs, and stores it as a single-node run", async () => {
    const data = expectOk(await h.call('POST', `${RUNS(workflowApp)}/draft/nodes/c/run`, { ...member(), body: { inputs: { 't.output': 'one two three' } } }));
    expect(data).toMatchObject({ status: 'succeeded', inputs: { 't.output': 'one two three' }, outputs: { length: 13, words: ['one', 'two', 'three'] } });
    expect(data.elapsedMs).toBeGreaterThan(0);
    const detail = expectOk(await h.call('GET', `${RUNS(workflowApp)}/runs/${data.runId}`, member()));
    expect(detail.run).toMatchObject({ source: 'single-node', node_id: 'c', status: 'succeeded', steps: 1 });
    expect(detail.nodes).toEqual([expect.objectContaining({ node_id: 'c', status: 'succeeded', outputs: { length: 13, words: ['one', 'two', 'three'] } })]);
  });

  it('an llm node alone calls the model with sys.query from the inputs', async () => {
    const data = expectOk(await h.call('POST', `${RUNS(chatApp)}/draft/nodes/llm/run`, { ...member(), body: { inputs: { 'sys.query': 'Just me' } } }));
    expect(data).toMatchObject({ status: 'succeeded', outputs: { text: 'Hello, world' }, usage: { totalTokens: 17 } });
    expect(fake.requests.at(-1)!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Just me' });
  });

  it("waiting for a sandbox does not count against the node's timeout (issue 34, single-node runs)", async () => {
    const spinning = structuredClone(workflowDoc);
    const c = spinning.nodes.find((n) => n.id === 'c')!.config;
    c.code = 'function main({ greeting }) { const end = Date.now() + 1500; while (Date.now() < end) {} return { length: 1, words: [] } }';
    c.timeoutSeconds = 10;
    const spinApp = await createApp(h, f.u.member.token, f.wsA, 'Long spin', spinning);
    const quick = structuredClone(workflowDoc);
    quick.nodes.find((n) => n.id === 'c')!.config.timeoutSeconds = 1;
    const quickApp = await createApp(h, f.u.member.token, f.wsA, 'Quick code', quick);
    // Fill the member's share of the sandbox with long runs, then run a quick code node alone.
    const sandbox = h.studio.ctx.sandbox;
    const busy = Array.from({ length: sandbox.limits.maxPerUser }, () => h.call('POST', `${RUNS(spinApp)}/draft/workflow-runs`, { ...member(), body: { inputs: { name: 'x' } } }));
    await expect.poll(() => sandbox.load.running).toBe(sandbox.limits.maxPerUser);
    const data = expectOk(await h.call('POST', `${RUNS(quickApp)}/draft/nodes/c/run`, { ...member(), body: { inputs: { 't.output': 'a b' } } }));
    // It waited over a second for a worker, longer than its 1 s timeout, and still succeeded.
    expect(data).toMatchObject({ status: 'succeeded', outputs: { length: 3, words: ['a', 'b'] } });
    expect(data.elapsedMs).toBeGreaterThan(1000);
    for (const b of await Promise.all(busy)) expect(parseSse(b.raw.body).at(-1)).toMatchObject({ type: 'run_finished' });
  });

  it('a failing node answers status failed with the error (not an HTTP error)', async () => {
    const data = expectOk(await h.call('POST', `${RUNS(workflowApp)}/draft/nodes/c/run`, { ...member(), body: { inputs: {} } }));
    expect(data).toMatchObject({ status: 'failed', error: { nodeId: 'c' }, outputs: {} });
  });

  it('only the node itself is checked: an unfinished flow around it does not refuse it, its own problems do', async () => {
    const unfinished = flow(
      [
        ['s', 'start', { variables: [textInput('x')] }],
        ['c', 'code', { inputs: [{ name: 'x', selector: ['s', 'x'] }], code: 'function main({ x }) { return { y: Number(x) * 2 } }', outputs: [{ name: 'y', type: 'number' }] }],
        // Not connected, no model, no end node: the whole draft cannot run.
        ['lost', 'llm', { prompts: [prompt('user', 'hi')] }],
      ],
      [],
    );
    const app = await createApp(h, f.u.member.token, f.wsA, 'Unfinished', unfinished);
    expectCode(await h.call('POST', `${RUNS(app)}/draft/workflow-runs`, { ...member(), body: { inputs: {} } }), 400, 'VALIDATION-1000');
    const data = expectOk(await h.call('POST', `${RUNS(app)}/draft/nodes/c/run`, { ...member(), body: { inputs: { 's.x': '21' } } }));
    expect(data).toMatchObject({ status: 'succeeded', outputs: { y: 42 } });
    const own = await h.call('POST', `${RUNS(app)}/draft/nodes/lost/run`, { ...member(), body: { inputs: {} } });
    expectCode(own, 400, 'VALIDATION-1000');
    expect(JSON.stringify(own.body)).toContain('node/lost');
  });

  it('a run id chosen by the caller names the run, so stop reaches exactly it; a used id is refused', async () => {
    const busy = flow(
      [
        ['s', 'start'],
        ['c', 'code', { inputs: [], code: 'function main() { while (true) {} }', outputs: [], timeoutSeconds: 20 }],
      ],
      [['s', 'c']],
    );
    const app = await createApp(h, f.u.member.token, f.wsA, 'Busy', busy);
    const runId = randomUUID();
    const going = h.call('POST', `${RUNS(app)}/draft/nodes/c/run`, { ...member(), body: { inputs: {}, run_id: runId } });
    let stop: Awaited<ReturnType<typeof h.call>> | undefined;
    for (let i = 0; i < 50; i++) {
      await new Promise((r) => setTimeout(r, 100));
      stop = await h.call('POST', `${RUNS(app)}/runs/${runId}/stop`, member());
      if (stop.status === 200 && stop.body.data.stopped) break;
    }
    expect(expectOk(stop!)).toEqual({ stopped: true });
    expect(expectOk(await going)).toMatchObject({ runId, status: 'stopped' });
    expectCode(await h.call('POST', `${RUNS(app)}/draft/nodes/c/run`, { ...member(), body: { inputs: {}, run_id: runId } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${RUNS(app)}/draft/nodes/c/run`, { ...member(), body: { inputs: {}, run_id: 'not-a-uuid' } }), 400, 'VALIDATION-1000');
  });

  it('an unknown node answers VALIDATION-1000', async () => {
    expectCode(await h.call('POST', `${RUNS(workflowApp)}/draft/nodes/nope/run`, { ...member(), body: { inputs: {} } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${RUNS(workflowApp)}/draft/nodes/c/run`, { ...member(), body: {} }), 400, 'VALIDATION-1000');
  });
});
