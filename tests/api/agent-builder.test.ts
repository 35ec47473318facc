import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAgentConfig, streamOptimizeInstructions, type OptimizeEvent } from '../../src/api/agent-builder';
import { signIn } from '../../src/api/auth';
import { ApiError, configureRequest } from '../../src/api/request';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { configureProvider, scriptedOpenAi, type ScriptedModel } from './runs-kit';
import { expectCode, expectOk, type Fixture, PASSWORD, setUpWorkspaces, type Who } from './workspace-fixture';

// The agent builder's AI calls (optimize the instructions, streamed; generate a first
// configuration) through the real server and its client functions, against the embedded database
// and a scripted OpenAI-compatible server: the model is the tenant's default LLM.

const h = useStudio();
const URL = (appId: string) => `/api/v1/console/apps/${appId}/agent-builder`;
let f: Fixture;
let fake: ScriptedModel;
let reply: (body: any) => string = () => 'ok';
let base: string;
let appId: string;

const call = (method: string, url: string, who: Who, body?: unknown, ws: string | null = f.wsA) =>
  h.call(method, url, { token: f.u[who].token, workspaceId: ws ?? undefined, body });

async function signInAs(who: Who) {
  configureRequest({ baseUrl: base });
  await signIn({ tenantId: DEFAULT_TENANT_ID, username: `agb_${who}`, password: PASSWORD });
}

async function optimize(body: { instructions: string; goal?: string }) {
  const out: OptimizeEvent[] = [];
  for await (const e of streamOptimizeInstructions(appId, body, { workspaceId: f.wsA })) out.push(e);
  return out;
}

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'agb');
  fake = await scriptedOpenAi((body) => reply(body));
  await configureProvider(h, 'openai', fake.baseUrl);
  base = await h.studio.app.listen({ port: 0, host: '127.0.0.1' });
  appId = expectOk(await call('POST', '/api/v1/console/apps', 'owner', { name: 'Helper', description: 'Helps', type: 'agent', icon: { icon: 'bot' } })).id;
});

afterAll(async () => {
  await fake?.close();
});

describe('with no default model', () => {
  it('both calls answer VALIDATION-1000 naming System > Models, and no model is called', async () => {
    const before = fake.requests.length;
    const o = await call('POST', `${URL(appId)}/optimize`, 'member', { instructions: 'Be nice.' });
    expectCode(o, 400, 'VALIDATION-1000');
    expect(o.body.msg).toContain('No model is configured');
    expectCode(await call('POST', `${URL(appId)}/generate`, 'member', { description: 'A travel helper' }), 400, 'VALIDATION-1000');
    expect(fake.requests.length).toBe(before);
  });
});

describe('POST /console/apps/{id}/agent-builder/optimize', () => {
  beforeAll(async () => {
    const d = await h.call('PUT', '/api/v1/admin/models/tenant-default', { token: h.adminToken, body: { model_type: 'llm', provider: 'openai', model: 'gpt-4o-mini' } });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
  });

  it('streams the rewrite in chunks with the default model, then the whole text; the goal and the references reach the model', async () => {
    await signInAs('member');
    const rewrite = 'You are a travel guide for {{#start.city#}}.\n\n## Goals\n- Suggest three places a day.\n- Answer in short lists.';
    reply = () => `\`\`\`\n${rewrite}\n\`\`\``;
    const events = await optimize({ instructions: 'help people visit {{#start.city#}}', goal: 'plan a day' });
    expect(events[0]).toEqual({ type: 'optimize_started', model: { provider: 'openai', name: 'gpt-4o-mini' } });
    const chunks = events.filter((e) => e.type === 'text_chunk');
    expect(chunks.length).toBeGreaterThan(3);
    expect(events.at(-1)).toEqual({ type: 'optimize_end', text: rewrite, dropped: [], added: [] });
    const sent = fake.requests.at(-1)!.body;
    expect(sent.model).toBe('gpt-4o-mini');
    expect(sent.stream).toBe(true);
    expect(sent.messages[0].role).toBe('system');
    expect(sent.messages[0].content).toContain('{{#...#}}');
    expect(sent.messages[1].content).toContain('plan a day');
    expect(sent.messages[1].content).toContain('help people visit {{#start.city#}}');
  });

  it('names the references the rewrite dropped or added', async () => {
    reply = () => 'Guide people around {{#start.country#}}.';
    const events = await optimize({ instructions: 'help people visit {{#start.city#}}' });
    expect(events.at(-1)).toMatchObject({ type: 'optimize_end', dropped: ['{{#start.city#}}'], added: ['{{#start.country#}}'] });
  });

  it('an empty answer ends with an error event, not an empty text', async () => {
    reply = () => '```\n  \n```';
    const events = await optimize({ instructions: 'x' });
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'VALIDATION-1000' });
  });

  it('refuses bad input, other project spaces and tenants, and unknown apps, without calling the model', async () => {
    const before = fake.requests.length;
    expectCode(await call('POST', `${URL(appId)}/optimize`, 'member', { instructions: '   ' }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL(appId)}/optimize`, 'member', { instructions: 'x'.repeat(20_001) }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL(appId)}/optimize`, 'member', { instructions: 'x', extra: 1 }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL(appId)}/optimize`, 'outsider', { instructions: 'x' }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL(appId)}/optimize`, 'outsider', { instructions: 'x' }, f.wsC), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL(appId)}/optimize`, 'foreign', { instructions: 'x' }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL(appId)}/optimize`, 'owner', { instructions: 'x' }, f.wsB), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL(appId)}/optimize`, 'member', { instructions: 'x' }, null), 400, 'VALIDATION-1008');
    expectCode(await call('POST', `${URL('not-an-app')}/optimize`, 'member', { instructions: 'x' }), 400, 'VALIDATION-1000');
    expect(fake.requests.length).toBe(before);
  });
});

describe('POST /console/apps/{id}/agent-builder/generate', () => {
  it('reads the model’s JSON (in prose or a fence) and makes it valid', async () => {
    await signInAs('member');
    reply = () =>
      'Here it is:\n```json\n' +
      JSON.stringify({
        instructions: 'You plan trips to {{#start.city#}}.',
        opening_statement: 'Where shall we go?',
        suggested_questions: ['A day in Rome?', 'A day in Rome?', 'Cheap food?'],
        variables: [
          { name: 'city', label: 'City', type: 'text', required: true },
          { name: 'my budget', label: 'Budget', type: 'select', options: ['low', 'high'], required: false },
          { name: 'x', type: 'select', options: [] },
          { name: 'city', label: 'Again', type: 'text' },
        ],
      }) +
      '\n```';
    const g = await generateAgentConfig(appId, { description: 'Plans city trips' }, { workspaceId: f.wsA });
    expect(g).toEqual({
      instructions: 'You plan trips to {{#start.city#}}.',
      opening_statement: 'Where shall we go?',
      suggested_questions: ['A day in Rome?', 'Cheap food?'],
      variables: [
        { name: 'city', label: 'City', type: 'text', required: true, options: [] },
        { name: 'my_budget', label: 'Budget', type: 'select', required: false, options: ['low', 'high'] },
      ],
    });
    const sent = fake.requests.at(-1)!.body;
    expect(sent.messages[1]).toEqual({ role: 'user', content: 'Plans city trips' });
    expect(sent.messages[0].content).toContain('"suggested_questions"');
  });

  it('an answer without instructions is VALIDATION-1000 and nothing is offered', async () => {
    reply = () => 'I cannot help with that.';
    const r = await call('POST', `${URL(appId)}/generate`, 'member', { description: 'x' });
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.body.msg).toContain('could be read');
    await expect(generateAgentConfig(appId, { description: 'x' }, { workspaceId: f.wsA })).rejects.toBeInstanceOf(ApiError);
  });

  it('refuses an empty description and callers outside the project space', async () => {
    const before = fake.requests.length;
    expectCode(await call('POST', `${URL(appId)}/generate`, 'member', { description: '  ' }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL(appId)}/generate`, 'outsider', { description: 'x' }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL(appId)}/generate`, 'foreign', { description: 'x' }), 400, 'VALIDATION-1000');
    expect(fake.requests.length).toBe(before);
  });
});
