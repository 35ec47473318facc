import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_FLOW_KINDS, FLOW_MODES, type FlowDocument, type FlowMode } from '../../schemas/flow';
import { computeChecklist } from '../../src/canvas/checklist';
import { createNodeRegistry } from '../../src/plugin-sdk';
import { loadBuiltinKinds } from '../../src/server/plugins/builtins';
import { fakeOpenAi, type FakeServer } from './fake-providers';
import { useStudio } from './harness';
import { configureProvider, createApp, flow, model, parseSse, prompt, RUNS } from './runs-kit';
import { expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// What a new app starts with: every mode's first flow takes the tenant's default LLM, is wired so
// its checklist has no errors, and a chat-mode LLM node remembers the conversation by default.

const h = useStudio();
let f: Fixture;
let fake: FakeServer;
// The server's own list of kinds (manifests only are used here: defaults and the checklist).
const registry = createNodeRegistry((await loadBuiltinKinds()).plugins);

const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });

async function newApp(type: FlowMode, name: string): Promise<{ id: string; document: FlowDocument }> {
  const app = expectOk(await h.call('POST', '/api/v1/console/apps', { ...member(), body: { name, description: name, type, icon: { icon: 'bot' } } }));
  const draft = expectOk(await h.call('GET', `/api/v1/console/apps/${app.id}/workflow`, member()));
  return { id: app.id, document: draft.document };
}

async function chat(appId: string, body: Record<string, unknown>) {
  const r = await h.call('POST', `${RUNS(appId)}/draft/chat-messages`, { ...member(), body });
  expect(r.status, r.raw.body).toBe(200);
  return parseSse(r.raw.body);
}

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'defaults');
  fake = await fakeOpenAi();
  h.allowOutbound(fake.baseUrl);
  await configureProvider(h, 'openai', fake.baseUrl);
  const r = await h.call('PUT', '/api/v1/admin/models/tenant-default', { token: h.adminToken, body: { model_type: 'llm', provider: 'openai', model: 'gpt-4o-mini' } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
});
afterAll(() => fake?.close());

describe('a new app', () => {
  it.each(FLOW_MODES)('of mode %s opens with the tenant default model and no checklist errors', async (mode) => {
    const { document } = await newApp(mode, `New ${mode}`);
    // The kinds that call a model hold `model` in their defaults.
    const withModel = document.nodes.filter((n) => 'model' in registry.defaults(n.kind));
    for (const n of withModel) expect(n.config.model, `${mode} ${n.id}`).toMatchObject({ provider: 'openai', name: 'gpt-4o-mini' });
    if (mode !== 'workflow') expect(withModel.length).toBeGreaterThan(0);
    const normalized = { ...document, nodes: document.nodes.map((n) => registry.normalizeNode(n)) };
    const errors = computeChecklist(normalized, registry).filter((e) => e.severity === 'error');
    expect(errors.map((e) => `${e.nodeId} ${e.key}`)).toEqual([]);
  });

  it('of an agent mode answers with its agent; a chatflow with its LLM (Dify’s start → LLM → answer)', async () => {
    expect(EMPTY_FLOW_KINDS.chatflow).toEqual(['start', 'llm', 'answer']);
    const agent = (await newApp('agent', 'Wired agent')).document;
    expect(agent.nodes.find((n) => n.kind === 'answer')!.config).toMatchObject({ answer: '{{#agent.text#}}' });
    const chatflow = (await newApp('chatflow', 'Wired chatflow')).document;
    expect(chatflow.nodes.find((n) => n.kind === 'answer')!.config).toMatchObject({ answer: '{{#llm.text#}}' });
    expect(chatflow.nodes.find((n) => n.kind === 'llm')!.config).toMatchObject({ prompts: [{ role: 'system' }, { role: 'user', text: '{{#sys.query#}}' }] });
  });
});

describe('memory of chat-mode LLM nodes', () => {
  it('is on by default: the second turn of a draft chat carries the first', async () => {
    // The LLM node names no memory setting: the defaults decide.
    const doc = flow(
      [
        ['s', 'start'],
        ['llm', 'llm', { model: model('openai', 'gpt-4o-mini'), prompts: [prompt('system', 'Be brief.'), prompt('user', '{{#sys.query#}}')] }],
        ['ans', 'answer', { answer: '{{#llm.text#}}' }],
      ],
      [
        ['s', 'llm'],
        ['llm', 'ans'],
      ],
      'chatflow',
    );
    const appId = await createApp(h, f.u.member.token, f.wsA, 'Remembers', doc);
    const first = await chat(appId, { query: 'My name is Ada' });
    const created = first[0];
    if (created.type !== 'run_created') throw new Error('first event');
    await chat(appId, { query: 'What is my name?', conversation_id: created.conversationId });
    expect(fake.requests.at(-1)!.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'My name is Ada' },
      { role: 'assistant', content: 'Hello, world' },
      { role: 'user', content: 'What is my name?' },
    ]);
  });

  it('is on in a new chatflow app too', async () => {
    const { id } = await newApp('chatflow', 'New remembers');
    const first = await chat(id, { query: 'I like tea' });
    const created = first[0];
    if (created.type !== 'run_created') throw new Error('first event');
    await chat(id, { query: 'What do I like?', conversation_id: created.conversationId });
    const messages = fake.requests.at(-1)!.body.messages as { role: string; content: string }[];
    expect(messages.map((m) => m.content)).toEqual(expect.arrayContaining(['I like tea', 'Hello, world', 'What do I like?']));
  });
});
