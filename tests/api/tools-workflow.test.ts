import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FlowDocument } from '../../schemas/flow';
import { runs } from '../../src/server/db/schema';
import { createToolService } from '../../src/server/tools/runtime';
import { WORKFLOW_TOOL_MAX_DEPTH } from '../../src/server/tools/workflow-run';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { fakeOpenAi, type FakeServer } from './fake-providers';
import { configureProvider, createApp, flow, model, parseSse, RUNS, saveDraft, textInput } from './runs-kit';
import { expectOk, type Fixture, MISSING, setUpWorkspaces } from './workspace-fixture';

// Workflow tools that run: app B (start → template-transform → end) offered as a tool, called by a
// tool node of app A's workflow, through the real run API on embedded Postgres.

const h = useStudio();
let f: Fixture;
const TOOLS = '/api/v1/console/tools';
const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });
const numberInput = (name: string) => ({ name, label: '', type: 'number', required: false, options: [], allowed_extensions: [] });

/** B: a report from a topic (required text) and a count (optional number). */
const reportFlow = flow(
  [
    ['s', 'start', { variables: [textInput('topic'), numberInput('count')] }],
    ['t', 'template-transform', { inputs: [{ name: 'topic', selector: ['s', 'topic'] }, { name: 'count', selector: ['s', 'count'] }], template: 'Report on {{ topic }} x{{ count }}' }],
    ['e', 'end', { outputs: [{ name: 'report', selector: ['t', 'output'] }, { name: 'topic', selector: ['s', 'topic'] }] }],
  ],
  [
    ['s', 't'],
    ['t', 'e'],
  ],
);

/** A workflow whose tool node calls the tool with `params` (text, variables of its start rendered). */
const callerFlow = (toolId: string, params: { name: string; text: string }[]): FlowDocument =>
  flow(
    [
      ['s', 'start', { variables: [textInput('subject')] }],
      ['t', 'tool', { toolId, functionId: 'run', params: params.map((p) => ({ ...p, source: 'text' })) }],
      ['e', 'end', { outputs: [{ name: 'result', selector: ['t', 'json'] }, { name: 'text', selector: ['t', 'text'] }] }],
    ],
    [
      ['s', 't'],
      ['t', 'e'],
    ],
  );

/** Publishes the app's current draft (owner) as `version`. */
async function publish(appId: string, version = `v${Date.now()}-${Math.random().toString(36).slice(2, 6)}`) {
  return expectOk(await h.call('POST', `/api/v1/console/apps/${appId}/publish`, { token: f.u.owner.token, workspaceId: f.wsA, body: { version } }));
}

/** Publishes the app (a tool runs the latest published version) and offers it as a workflow tool. */
async function workflowTool(appId: string): Promise<string> {
  await publish(appId);
  return expectOk(await h.call('POST', `${TOOLS}/workflow`, { token: f.u.owner.token, workspaceId: f.wsA, body: { app_id: appId } })).id as string;
}

async function runWorkflow(appId: string, inputs: Record<string, unknown>) {
  const r = await h.call('POST', `${RUNS(appId)}/draft/workflow-runs`, { ...member(), body: { inputs } });
  expect(r.status, r.raw.body).toBe(200);
  return parseSse(r.raw.body).at(-1) as unknown as { type: string; outputs: Record<string, unknown>; error?: { code: string; message: string; nodeId?: string } };
}

async function runLog(appId: string) {
  return expectOk(await h.call('GET', `${RUNS(appId)}/runs`, member())) as { list: { id: string; status: string; source: string; inputs: unknown; outputs: unknown; error: { code: string } | null; created_by: string }[]; total: number };
}

let appB = '';
let toolB = '';

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'wftool');
  appB = await createApp(h, f.u.member.token, f.wsA, 'Report flow', reportFlow);
  toolB = await workflowTool(appB);
});

describe('a workflow tool inside a run', () => {
  it("runs B's flow from A's tool node: outputs come back and B's log has the run", async () => {
    const appA = await createApp(h, f.u.member.token, f.wsA, 'Caller flow', callerFlow(toolB, [{ name: 'topic', text: '{{#s.subject#}}' }, { name: 'count', text: '3' }]));
    const last = await runWorkflow(appA, { subject: 'Oslo' });
    expect(last.type, JSON.stringify(last)).toBe('run_finished');
    expect(last.outputs.result).toEqual([{ report: 'Report on Oslo x3', topic: 'Oslo' }]);
    expect(JSON.parse(last.outputs.text as string)).toEqual({ report: 'Report on Oslo x3', topic: 'Oslo' });

    // B's log: one run, with the tool's arguments as inputs, by the member whose run called it.
    const log = await runLog(appB);
    expect(log.total).toBe(1);
    expect(log.list[0]).toMatchObject({ status: 'succeeded', source: 'tool', inputs: { topic: 'Oslo', count: '3' }, outputs: { report: 'Report on Oslo x3', topic: 'Oslo' }, created_by: f.u.member.id });
    const detail = expectOk(await h.call('GET', `${RUNS(appB)}/runs/${log.list[0].id}`, member()));
    expect(detail.nodes.map((n: { node_id: string; status: string }) => [n.node_id, n.status])).toEqual([
      ['s', 'succeeded'],
      ['t', 'succeeded'],
      ['e', 'succeeded'],
    ]);
    // A's own log has its run too.
    expect((await runLog(appA)).list[0]).toMatchObject({ status: 'succeeded' });
  });

  it("masks the caller's secret in the inner run: its inputs, trace and result (issue 20)", async () => {
    const SECRET = 'caller-secret-7Hq2';
    const doc = callerFlow(toolB, [{ name: 'topic', text: 'key {{#env.TOKEN#}}' }]);
    doc.variables.env = [{ id: 'k', name: 'TOKEN', type: 'secret', value: SECRET, description: '' }] as never;
    const appA = await createApp(h, f.u.member.token, f.wsA, 'Caller with a secret', doc);
    const before = (await runLog(appB)).total;
    const last = await runWorkflow(appA, { subject: 'x' });
    expect(last.outputs.result).toEqual([{ report: 'Report on key ****** x', topic: 'key ******' }]);
    const log = await runLog(appB);
    expect(log.total).toBe(before + 1);
    const inner = await h.call('GET', `${RUNS(appB)}/runs/${log.list[0].id}`, member());
    expect(JSON.stringify(log.list[0])).not.toContain(SECRET);
    expect(inner.raw.body).not.toContain(SECRET);
    expect(JSON.stringify(await h.studio.ctx.db.select().from(runs).where(eq(runs.appId, appB)))).not.toContain(SECRET);
  });

  it('offers the app as a function to agents (describe), with the start form as parameters', async () => {
    const service = createToolService(h.studio.ctx, { tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsA });
    expect(await service.describe!({ provider: toolB, name: 'run' }, { signal: AbortSignal.timeout(5000) })).toEqual({
      name: 'Report flow',
      description: 'Report flow',
      parameters: { type: 'object', properties: { topic: { type: 'string' }, count: { type: 'number' } }, required: ['topic'] },
    });
  });

  it('refuses wrong inputs with a clear error, before or inside the inner run', async () => {
    // An argument the start form does not have: the caller's run fails, B does not run.
    const before = (await runLog(appB)).total;
    const typo = await createApp(h, f.u.member.token, f.wsA, 'Typo caller', callerFlow(toolB, [{ name: 'topik', text: 'x' }]));
    const failed = await runWorkflow(typo, { subject: 'x' });
    expect(failed.type).toBe('run_failed');
    expect(failed.error).toMatchObject({ code: 'TOOL-WORKFLOW-INPUT', nodeId: 't' });
    expect(failed.error!.message).toContain('has no input "topik" (its inputs: topic, count)');
    expect((await runLog(appB)).total).toBe(before);

    // A required input left out.
    const service = createToolService(h.studio.ctx, { tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsA, appId: typo, userId: f.u.member.id });
    const call = (args: Record<string, unknown>) => service.call({ provider: toolB, name: 'run' }, args, { signal: AbortSignal.timeout(10_000) }).then(() => ({ code: 'none', message: '' }), (e: { code: string; message: string }) => e);
    const missing = await call({ count: 2 });
    expect(missing).toMatchObject({ code: 'TOOL-WORKFLOW-INPUT' });
    expect(missing.message).toContain('needs the input "topic"');

    // A value of the wrong type: the start node of B refuses it; B's log keeps the failed run.
    const wrong = await call({ topic: 'x', count: 'many' });
    expect(wrong.code).toBe('START-INPUT-INVALID');
    expect(wrong.message).toBe('The workflow "Report flow" failed: Input "count" should be a number');
    const log = await runLog(appB);
    expect(log.total).toBe(before + 1);
    expect(log.list[0]).toMatchObject({ status: 'failed', error: { code: 'START-INPUT-INVALID' } });

    // Direct service call succeeds with typed arguments.
    const ok = await service.call({ provider: toolB, name: 'run' }, { topic: 'Rome', count: 2 }, { signal: AbortSignal.timeout(10_000) });
    expect(ok).toMatchObject({ json: [{ report: 'Report on Rome x2', topic: 'Rome' }] });
  });
});

describe('a workflow tool called by an agent', () => {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await fakeOpenAi();
    await configureProvider(h, 'openai', fake.baseUrl);
  });
  afterAll(() => fake?.close());

  it('is offered to the model as a function; the call runs the app and its outputs go back to the model', async () => {
    // The fake model calls the first tool it is offered with {"city":"Paris"}, then answers.
    const weather = await createApp(
      h,
      f.u.member.token,
      f.wsA,
      'Weather flow',
      flow(
        [
          ['s', 'start', { variables: [textInput('city')] }],
          ['t', 'template-transform', { inputs: [{ name: 'city', selector: ['s', 'city'] }], template: 'Sunny in {{ city }}' }],
          ['e', 'end', { outputs: [{ name: 'forecast', selector: ['t', 'output'] }] }],
        ],
        [
          ['s', 't'],
          ['t', 'e'],
        ],
      ),
    );
    const tool = await workflowTool(weather);
    const agentApp = await createApp(
      h,
      f.u.member.token,
      f.wsA,
      'Agent caller',
      flow(
        [
          ['s', 'start'],
          ['a', 'agent', { model: model('openai', 'gpt-4o-mini'), instructions: 'Use the tools.', tools: [{ type: 'tool', providerId: tool, name: 'run' }] }],
          ['ans', 'answer', { answer: '{{#a.text#}}' }],
        ],
        [
          ['s', 'a'],
          ['a', 'ans'],
        ],
        'agent',
      ),
    );
    const r = await h.call('POST', `${RUNS(agentApp)}/draft/chat-messages`, { ...member(), body: { query: 'Weather in Paris?' } });
    expect(r.status, r.raw.body).toBe(200);
    const last = parseSse(r.raw.body).at(-1) as unknown as { type: string; answer: string };
    expect(last.type, JSON.stringify(last)).toBe('run_finished');
    expect(last.answer).toBe('Hello, world');
    const chats = fake.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chats[0].body.tools[0].function).toMatchObject({ name: 'Weather_flow', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } });
    const toolMessage = chats[1].body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(JSON.parse(toolMessage.content)).toEqual({ forecast: 'Sunny in Paris' });
    expect((await runLog(weather)).list.map((r) => [r.status, r.inputs])).toEqual([['succeeded', { city: 'Paris' }]]);
  });
});

describe('recursion, depth, time and stop', () => {
  it('refuses a workflow tool that calls its own app, directly or through a chain', async () => {
    // C calls the tool made from C.
    const appC = await createApp(h, f.u.member.token, f.wsA, 'Self caller', reportFlow);
    const toolC = await workflowTool(appC);
    await saveDraft(h, f.u.member.token, f.wsA, appC, callerFlow(toolC, [{ name: 'subject', text: 'again' }]));
    const self = await runWorkflow(appC, { subject: 'x' });
    expect(self.type).toBe('run_failed');
    expect(self.error).toMatchObject({ code: 'TOOL-WORKFLOW-RECURSION', nodeId: 't' });
    expect(self.error!.message).toContain('would run its own app again inside itself');
    expect((await runLog(appC)).total).toBe(1);

    // D calls E's tool, E calls D's tool: D → E → D is refused inside E's run.
    const appD = await createApp(h, f.u.member.token, f.wsA, 'Chain D', reportFlow);
    const appE = await createApp(h, f.u.member.token, f.wsA, 'Chain E', reportFlow);
    const toolD = await workflowTool(appD);
    const toolE = await workflowTool(appE);
    await saveDraft(h, f.u.member.token, f.wsA, appD, callerFlow(toolE, [{ name: 'subject', text: 'from D' }]));
    await saveDraft(h, f.u.member.token, f.wsA, appE, callerFlow(toolD, [{ name: 'subject', text: 'from E' }]));
    // Tools run the published versions: publish the calling flows.
    await publish(appD);
    await publish(appE);
    const chain = await runWorkflow(appD, { subject: 'start' });
    expect(chain.type).toBe('run_failed');
    expect(chain.error!.code).toBe('TOOL-WORKFLOW-RECURSION');
    expect(chain.error!.message).toMatch(/^The workflow "Chain E" failed: The workflow tool "Chain D" would run its own app again/);
    // E ran once (and failed there); D ran only as the outer run.
    const eLog = await runLog(appE);
    expect(eLog.list.map((r) => [r.status, r.error?.code])).toEqual([['failed', 'TOOL-WORKFLOW-RECURSION']]);
    expect((await runLog(appD)).total).toBe(1);
  });

  it('caps the depth of workflow tools inside one another', async () => {
    const chain = Array.from({ length: WORKFLOW_TOOL_MAX_DEPTH }, () => MISSING);
    const service = createToolService(h.studio.ctx, { tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsA, appId: f.wsB, userId: f.u.member.id, chain });
    const err = await service.call({ provider: toolB, name: 'run' }, { topic: 'deep' }, { signal: AbortSignal.timeout(5000) }).then(() => null, (e: { code: string; message: string }) => e);
    expect(err).toMatchObject({ code: 'TOOL-WORKFLOW-DEPTH' });
    expect(err!.message).toContain(`at most ${WORKFLOW_TOOL_MAX_DEPTH} workflow tools`);
    // One level less runs.
    const ok = createToolService(h.studio.ctx, { tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsA, appId: f.wsB, userId: f.u.member.id, chain: chain.slice(1) });
    expect(await ok.call({ provider: toolB, name: 'run' }, { topic: 'deep' }, { signal: AbortSignal.timeout(5000) })).toMatchObject({ json: [{ report: 'Report on deep x' }] });
  });

  it('respects the run deadline and the abort signal, and needs a run to call it', async () => {
    const scope = { tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsA, appId: f.wsB, userId: f.u.member.id };
    const errorOf = (p: Promise<unknown>) => p.then(() => null, (e: { code?: string; name?: string; message: string }) => e);
    const before = (await runLog(appB)).total;
    const late = createToolService(h.studio.ctx, { ...scope, deadline: Date.now() - 1 });
    expect(await errorOf(late.call({ provider: toolB, name: 'run' }, { topic: 'late' }, { signal: AbortSignal.timeout(5000) }))).toMatchObject({ code: 'RUN-1302' });
    const stopped = createToolService(h.studio.ctx, scope);
    expect(await errorOf(stopped.call({ provider: toolB, name: 'run' }, { topic: 'stopped' }, { signal: AbortSignal.abort() }))).toMatchObject({ name: 'AbortError' });
    expect((await runLog(appB)).total).toBe(before);
    const outside = createToolService(h.studio.ctx, { tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsA });
    expect(await errorOf(outside.call({ provider: toolB, name: 'run' }, { topic: 'x' }, { signal: AbortSignal.timeout(5000) }))).toMatchObject({ code: 'TOOL-WORKFLOW-NOT-RUNNABLE' });
    // Another workspace does not reach the tool at all.
    const other = createToolService(h.studio.ctx, { ...scope, workspaceId: f.wsB });
    expect(await errorOf(other.call({ provider: toolB, name: 'run' }, { topic: 'x' }, { signal: AbortSignal.timeout(5000) }))).toMatchObject({ code: 'TOOL-NOT-FOUND' });
    const rows = await h.studio.ctx.db.select({ id: runs.id }).from(runs).where(eq(runs.appId, appB));
    expect(rows.length).toBe(before);
  });
});

describe('the published version is what a workflow tool runs', () => {
  const service = () => createToolService(h.studio.ctx, { tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsA, appId: f.wsB, userId: f.u.member.id });
  const call = (toolId: string, args: Record<string, unknown>) =>
    service()
      .call({ provider: toolId, name: 'run' }, args, { signal: AbortSignal.timeout(10_000) })
      .then((r) => ({ ok: r as { json: Record<string, unknown>[] }, error: null }), (e: { code: string; message: string }) => ({ ok: null, error: e }));
  const echoFlow = (field: string, template: string) =>
    flow(
      [
        ['s', 'start', { variables: [textInput(field)] }],
        ['t', 'template-transform', { inputs: [{ name: field, selector: ['s', field] }], template }],
        ['e', 'end', { outputs: [{ name: 'said', selector: ['t', 'output'] }] }],
      ],
      [
        ['s', 't'],
        ['t', 'e'],
      ],
    );

  it('refuses to offer an app that was never published, with a clear message; the app list marks it', async () => {
    const appId = await createApp(h, f.u.member.token, f.wsA, 'Never published', echoFlow('word', '{{ word }}'));
    const r = await h.call('POST', `${TOOLS}/workflow`, { token: f.u.owner.token, workspaceId: f.wsA, body: { app_id: appId } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'VALIDATION-1000', data: { app_id: appId, reason: 'TOOL-WORKFLOW-UNPUBLISHED' } });
    expect(r.body.msg).toBe('The workflow app "Never published" has no published version: publish it on its Version tab before offering it as a tool');
    const listed = expectOk(await h.call('GET', '/api/v1/console/apps', { ...member(), query: { type: 'workflow', name: 'Never published' } })).items;
    expect(listed[0].latest_version).toBeNull();
    await publish(appId, 'v1.0.0');
    const after = expectOk(await h.call('GET', '/api/v1/console/apps', { ...member(), query: { type: 'workflow', name: 'Never published' } })).items;
    expect(after[0].latest_version).toBe('v1.0.0');
  });

  it('a draft change after publishing changes neither the inputs nor the result; publishing again does', async () => {
    const appId = await createApp(h, f.u.member.token, f.wsA, 'Frozen flow', echoFlow('word', 'v1 says {{ word }}'));
    const toolId = await workflowTool(appId);
    await saveDraft(h, f.u.member.token, f.wsA, appId, echoFlow('phrase', 'draft says {{ phrase }}'));

    expect((await call(toolId, { word: 'hi' })).ok).toMatchObject({ json: [{ said: 'v1 says hi' }] });
    const params = async () => expectOk(await h.call('GET', `${TOOLS}/${toolId}`, member())).functions[0].params.map((p: { param_key: string }) => p.param_key);
    expect(await params()).toEqual(['word']);
    const log = await runLog(appId);
    expect(log.list[0]).toMatchObject({ status: 'succeeded', source: 'tool', inputs: { word: 'hi' } });

    await publish(appId, 'v2');
    expect(await params()).toEqual(['phrase']);
    expect((await call(toolId, { phrase: 'yo' })).ok).toMatchObject({ json: [{ said: 'draft says yo' }] });
    expect((await call(toolId, { word: 'hi' })).error).toMatchObject({ code: 'TOOL-WORKFLOW-INPUT' });
  });

  it("runs with the secret environment values frozen in the version, not the draft's later ones", async () => {
    const withSecret = (token: string | undefined): FlowDocument => {
      const doc = flow(
        [
          ['s', 'start', { variables: [textInput('word')] }],
          ['t', 'template-transform', { inputs: [{ name: 'word', selector: ['s', 'word'] }, { name: 'token', selector: ['env', 'TOKEN'] }], template: '{{ word }} with {{ token | upper }} ({{ token }})' }],
          ['e', 'end', { outputs: [{ name: 'said', selector: ['t', 'output'] }] }],
        ],
        [
          ['s', 't'],
          ['t', 'e'],
        ],
      );
      return { ...doc, variables: { ...doc.variables, env: [{ id: 'k', name: 'TOKEN', type: 'secret', description: '', ...(token === undefined ? {} : { value: token }) }] } } as FlowDocument;
    };
    const appId = await createApp(h, f.u.member.token, f.wsA, 'Secret flow', withSecret('tok-1'));
    const toolId = await workflowTool(appId);
    await saveDraft(h, f.u.member.token, f.wsA, appId, withSecret('tok-2'));
    // The secret itself leaves the inner run masked (issue 20); upper-cased it is told apart.
    expect((await call(toolId, { word: 'call' })).ok).toMatchObject({ json: [{ said: 'call with TOK-1 (******)' }] });
    await publish(appId, 'v-secret-2');
    expect((await call(toolId, { word: 'call' })).ok).toMatchObject({ json: [{ said: 'call with TOK-2 (******)' }] });
  });

  it('runs the previous version when the newest is deleted, and refuses to run with no version left', async () => {
    const appId = await createApp(h, f.u.member.token, f.wsA, 'Versions come and go', echoFlow('word', 'old {{ word }}'));
    const toolId = await workflowTool(appId);
    await saveDraft(h, f.u.member.token, f.wsA, appId, echoFlow('word', 'new {{ word }}'));
    const v2 = await publish(appId, 'v2');
    expect((await call(toolId, { word: 'a' })).ok).toMatchObject({ json: [{ said: 'new a' }] });
    expectOk(await h.call('DELETE', `/api/v1/console/apps/${appId}/publish/${v2.id}`, { token: f.u.owner.token, workspaceId: f.wsA }));
    expect((await call(toolId, { word: 'b' })).ok).toMatchObject({ json: [{ said: 'old b' }] });
    const versions = expectOk(await h.call('GET', `/api/v1/console/apps/${appId}/publish`, member())).items as { id: string }[];
    for (const v of versions) expectOk(await h.call('DELETE', `/api/v1/console/apps/${appId}/publish/${v.id}`, { token: f.u.owner.token, workspaceId: f.wsA }));
    const before = (await runLog(appId)).total;
    const gone = await call(toolId, { word: 'c' });
    expect(gone.error).toMatchObject({ code: 'TOOL-WORKFLOW-UNPUBLISHED' });
    expect(gone.error!.message).toBe('The workflow "Versions come and go" of the tool "Versions come and go" has no published version: publish it first');
    expect((await runLog(appId)).total).toBe(before);
  });
});
