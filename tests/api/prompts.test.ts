import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { useStudio, type CallOptions } from './harness';
import { expectCode, expectOk, type Fixture, MISSING, setUpWorkspaces, type Who } from './workspace-fixture';
import { prompts } from '../../src/server/db/schema';

const h = useStudio();
const URL = '/api/v1/console/prompts';
let f: Fixture;

function call(method: string, url: string, who: Who, opts: Omit<CallOptions, 'token'> & { ws?: string | null } = {}) {
  const { ws, ...rest } = opts;
  return h.call(method, url, { ...rest, token: f.u[who].token, workspaceId: ws === null ? undefined : (ws ?? f.wsA) });
}

interface Variable {
  name: string;
  description: string;
  default: string;
}
interface PromptOut {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  tags: string[];
  content: string;
  template_type: string;
  scene: string;
  variables: Variable[];
  model: { provider: string; name: string } | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

async function create(body: Record<string, unknown>, who: Who = 'owner', ws?: string): Promise<PromptOut> {
  return expectOk(await call('POST', URL, who, { body, ws }));
}
const read = async (id: string, who: Who = 'owner', ws?: string): Promise<PromptOut> => expectOk(await call('GET', `${URL}/${id}`, who, { ws }));
const names = async (who: Who, query: Record<string, string | number> = {}, ws?: string) =>
  (expectOk(await call('GET', URL, who, { query, ws })).items as PromptOut[]).map((p) => p.name);
const parse = (type: string, content: string, who: Who = 'member', ws?: string | null) =>
  call('POST', `${URL}/${type}/parse-variables`, who, { body: { content }, ws });
const vars = (...names: string[]) => names.map((name) => ({ name, description: '', default: '' }));

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'prm');
});

describe('POST /console/prompts/:template_type/parse-variables', () => {
  it('answers f-string variables in order of first appearance', async () => {
    const r = expectOk(await parse('f-string', 'Answer {question} using {context!r}; {{literal}} {question} {width:>{pad}}'));
    expect(r).toEqual({ variables: ['question', 'context', 'width', 'pad'] });
  });

  it('answers jinja2 variables: attributes, filters, loops and conditions', async () => {
    const content = [
      'Hi {{ user.name | title }}!',
      '{% for doc in documents if doc.score > min_score %}- {{ doc.text }} ({{ loop.index }}){% endfor %}',
      '{% if show_tips %}{{ tips | join(sep) }}{% endif %}',
      '{# {{ ignored }} #}{% set total = documents | length %}{{ total }}',
    ].join('\n');
    expect(expectOk(await parse('jinja2', content))).toEqual({ variables: ['user', 'documents', 'min_score', 'show_tips', 'tips', 'sep'] });
    expect(expectOk(await parse('jinja2', 'no variables'))).toEqual({ variables: [] });
    expect(expectOk(await parse('f-string', ''))).toEqual({ variables: [] });
  });

  it('refuses an invalid template with VALIDATION-1000 and its position', async () => {
    const r = await parse('jinja2', 'line one\n  {% for x in items %}{{ x }}');
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.body.msg).toContain('line 2, column 3');
    expect(r.body.data).toEqual([
      { path: 'body/content', message: expect.stringContaining("missing 'endfor'"), line: 2, column: 3, offset: 11 },
    ]);
    const fs = await parse('f-string', 'JSON: {"a": 1}');
    expectCode(fs, 400, 'VALIDATION-1000');
    expect(fs.body.data[0]).toMatchObject({ line: 1, column: 8, offset: 7 });
    expect(fs.body.data[0].message).toContain("Invalid variable name");
    expectCode(await parse('f-string', 'a } b'), 400, 'VALIDATION-1000');
    expectCode(await parse('jinja2', '{{ a + }}'), 400, 'VALIDATION-1000');
  });

  it('refuses an unknown template type, a missing content and an over-long content', async () => {
    expectCode(await parse('mustache', '{{a}}'), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/jinja2/parse-variables`, 'member', { body: {} }), 400, 'VALIDATION-1000');
    expectCode(await parse('jinja2', 'x'.repeat(50_001)), 400, 'VALIDATION-1000');
  });

  it('is open to every member, closed outside the workspace, and needs the header', async () => {
    for (const who of ['owner', 'admin', 'member'] as const) expectOk(await parse('f-string', '{a}', who));
    expectCode(await parse('f-string', '{a}', 'outsider'), 400, 'VALIDATION-1000');
    expectCode(await parse('f-string', '{a}', 'foreign'), 400, 'VALIDATION-1000');
    expectCode(await parse('f-string', '{a}', 'owner', f.wsC), 400, 'VALIDATION-1000');
    expectCode(await parse('f-string', '{a}', 'owner', null), 400, 'VALIDATION-1008');
  });
});

describe('POST /console/prompts (create)', () => {
  it('creates a prompt with defaults and variables parsed from the content', async () => {
    const p = await create({ name: '  Summariser  ', content: 'Summarise {text} in {words} words.' });
    expect(p).toMatchObject({
      name: 'Summariser',
      description: '',
      tags: [],
      content: 'Summarise {text} in {words} words.',
      template_type: 'f-string',
      scene: 'llm_chain',
      variables: vars('text', 'words'),
      model: null,
      workspace_id: f.wsA,
      created_by: f.u.owner.id,
    });
    expect(await read(p.id, 'member')).toEqual(p);
  });

  it('keeps given fields: jinja2, scene, tags, model, explicit variables', async () => {
    const p = await create(
      {
        name: 'Retriever',
        description: 'answers from documents',
        tags: ['rag', 'docs'],
        content: '{% for d in docs %}{{ d }}{% endfor %} Q: {{ question }}',
        template_type: 'jinja2',
        scene: 'retrieval_chain',
        variables: [{ name: 'question', description: 'What the user asks', default: 'Why?' }, { name: 'docs' }],
        model: { provider: 'openai', name: 'gpt-4o-mini' },
      },
      'admin',
    );
    expect(p).toMatchObject({
      tags: ['rag', 'docs'],
      template_type: 'jinja2',
      scene: 'retrieval_chain',
      variables: [{ name: 'question', description: 'What the user asks', default: 'Why?' }, { name: 'docs', description: '', default: '' }],
      model: { provider: 'openai', name: 'gpt-4o-mini' },
      created_by: f.u.admin.id,
    });
  });

  it('refuses an invalid template with its position and creates nothing', async () => {
    const r = await call('POST', URL, 'owner', { body: { name: 'Broken', content: 'ok\n{% if x %}', template_type: 'jinja2' } });
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.body.data[0]).toMatchObject({ path: 'body/content', line: 2, column: 1 });
    expectCode(await call('POST', URL, 'owner', { body: { name: 'Broken', content: 'a {} b' } }), 400, 'VALIDATION-1000');
    expect(await names('owner', { name: 'Broken' })).toEqual([]);
  });

  it('refuses an id (VALIDATION-1002), bad input (VALIDATION-1000) and a taken name (VALIDATION-1001)', async () => {
    expectCode(await call('POST', URL, 'owner', { body: { id: randomUUID(), name: 'Bad P', content: 'x' } }), 400, 'VALIDATION-1002');
    for (const over of [
      { name: '' },
      { name: 'n'.repeat(51) },
      { content: '' },
      { content: '   ' },
      { tags: ['a', 'b', 'c', 'd', 'e', 'f'] },
      { tags: ['x'.repeat(21)] },
      { tags: ['same', 'same'] },
      { tags: [''] },
      { template_type: 'mustache' },
      { scene: 'chat_chain' },
      { variables: [{ name: 'a' }, { name: 'a' }] },
      { variables: [{ name: '1abc' }] },
      { variables: [{ name: 'has space' }] },
      { model: { provider: 'openai' } },
      { description: 'd'.repeat(501) },
      { extra: true },
    ]) {
      expectCode(await call('POST', URL, 'owner', { body: { name: 'Bad P', content: 'x', ...over } }), 400, 'VALIDATION-1000');
    }
    // Five tags of twenty characters are fine.
    const ok = await create({ name: 'Five Tags', content: 'x', tags: ['t1', 't2', 't3', 't4', 'x'.repeat(20)] });
    expect(ok.tags).toHaveLength(5);
    await create({ name: 'Taken Prompt', content: 'x' });
    expectCode(await call('POST', URL, 'admin', { body: { name: 'TAKEN prompt', content: 'y' } }), 400, 'VALIDATION-1001');
    expect(await names('owner', { name: 'Bad P' })).toEqual([]);
    expect(await names('owner', { name: 'taken' })).toEqual(['Taken Prompt']);
    // Another workspace may use the name.
    expect((await create({ name: 'Taken Prompt', content: 'x' }, 'owner', f.wsB)).workspace_id).toBe(f.wsB);
  });

  it('is refused to an ordinary member (403), outside the workspace (VALIDATION-1000) and without the header (VALIDATION-1008)', async () => {
    expectCode(await call('POST', URL, 'member', { body: { name: 'By Member', content: 'x' } }), 403, 'PERMISSION-1000');
    expectCode(await call('POST', URL, 'owner', { body: { name: 'In C', content: 'x' }, ws: f.wsC }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', URL, 'foreign', { body: { name: 'Foreign', content: 'x' } }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', URL, 'owner', { body: { name: 'No Header', content: 'x' }, ws: null }), 400, 'VALIDATION-1008');
    for (const name of ['By Member', 'In C', 'Foreign', 'No Header']) expect(await names('owner', { name })).toEqual([]);
    expect(await names('outsider', {}, f.wsC)).toEqual([]);
  });
});

describe('GET /console/prompts (list) and /:id', () => {
  it('lists the last changed first for every member; filters by name, tag and scene; pages', async () => {
    const a = await create({ name: 'Flt Alpha', content: 'a', tags: ['sales', 'cn'], scene: 'extract_chain' }, 'owner', f.wsB);
    const b = await create({ name: 'Flt Beta', content: 'b', tags: ['sales'] }, 'owner', f.wsB);
    const c = await create({ name: 'Flt Gamma', content: 'c', tags: ['support'], scene: 'extract_chain' }, 'owner', f.wsB);
    expect(await names('owner', { name: 'flt' }, f.wsB)).toEqual(['Flt Gamma', 'Flt Beta', 'Flt Alpha']);
    expect(await names('owner', { tag: 'sales' }, f.wsB)).toEqual(['Flt Beta', 'Flt Alpha']);
    expect(await names('owner', { tag: 'sale' }, f.wsB)).toEqual([]);
    expect(await names('owner', { scene: 'extract_chain' }, f.wsB)).toEqual(['Flt Gamma', 'Flt Alpha']);
    expect(await names('owner', { scene: 'extract_chain', tag: 'sales' }, f.wsB)).toEqual(['Flt Alpha']);
    // Editing moves a prompt to the top.
    expectOk(await call('PUT', URL, 'owner', { body: { id: a.id, description: 'edited' }, ws: f.wsB }));
    expect(await names('owner', { name: 'flt' }, f.wsB)).toEqual(['Flt Alpha', 'Flt Gamma', 'Flt Beta']);
    const p2 = expectOk(await call('GET', URL, 'owner', { ws: f.wsB, query: { name: 'flt', page: 2, page_size: 2 } }));
    expect(p2).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(p2.items.map((p: PromptOut) => p.id)).toEqual([b.id]);
    expect(c.id).toBeTruthy();
    // Workspace A does not see them.
    expect(await names('member', { name: 'flt' })).toEqual([]);
  });

  it('refuses page_size above 1000 (VALIDATION-1009), bad filters, a missing header and other workspaces', async () => {
    expectCode(await call('GET', URL, 'member', { query: { page_size: 1001 } }), 400, 'VALIDATION-1009');
    expectCode(await call('GET', URL, 'member', { query: { scene: 'nope' } }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', URL, 'member', { ws: null }), 400, 'VALIDATION-1008');
    expectCode(await call('GET', URL, 'owner', { ws: f.wsC }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', URL, 'foreign'), 400, 'VALIDATION-1000');
  });

  it('answers one prompt to any member; VALIDATION-1000 for another workspace or an unknown id', async () => {
    const p = await create({ name: 'Get Prompt', content: '{a}' });
    const inB = await create({ name: 'Get Prompt B', content: '{a}' }, 'owner', f.wsB);
    for (const who of ['admin', 'member'] as const) expect(await read(p.id, who)).toEqual(p);
    expectCode(await call('GET', `${URL}/${inB.id}`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${MISSING}`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/nope`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${p.id}`, 'outsider'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${p.id}`, 'owner', { ws: null }), 400, 'VALIDATION-1008');
  });
});

describe('PUT /console/prompts (update)', () => {
  it('re-parses variables when the content changes, keeping what was said about the remaining ones', async () => {
    const p = await create({
      name: 'Upd Vars',
      content: 'Translate {text} to {language}',
      variables: [
        { name: 'text', description: 'source text', default: '' },
        { name: 'language', description: 'target', default: 'English' },
      ],
    });
    const r = expectOk(await call('PUT', URL, 'admin', { body: { id: p.id, content: 'Translate {text} to {language} in a {tone} tone' } }));
    expect(r.variables).toEqual([
      { name: 'text', description: 'source text', default: '' },
      { name: 'language', description: 'target', default: 'English' },
      { name: 'tone', description: '', default: '' },
    ]);
    // Switching the template type re-parses the same content with the other rules.
    const j = expectOk(await call('PUT', URL, 'owner', { body: { id: p.id, template_type: 'jinja2', content: '{{ language }}: {{ text }}' } }));
    expect(j.variables).toEqual([
      { name: 'language', description: 'target', default: 'English' },
      { name: 'text', description: 'source text', default: '' },
    ]);
    // Explicit variables win; other fields stay.
    const e = expectOk(await call('PUT', URL, 'owner', { body: { id: p.id, variables: [{ name: 'only', description: 'd' }] } }));
    expect(e).toMatchObject({ content: '{{ language }}: {{ text }}', template_type: 'jinja2', variables: [{ name: 'only', description: 'd', default: '' }] });
    expect(e.created_at).toBe(p.created_at);
  });

  it('sets and clears the model, tags and scene', async () => {
    const p = await create({ name: 'Upd Model', content: 'x', model: { provider: 'p', name: 'm' }, tags: ['a'] });
    const r = expectOk(await call('PUT', URL, 'owner', { body: { id: p.id, model: null, tags: [], scene: 'analysis_chain', name: 'Upd Model 2' } }));
    expect(r).toMatchObject({ model: null, tags: [], scene: 'analysis_chain', name: 'Upd Model 2' });
    const row = (await h.studio.ctx.db.select().from(prompts).where(eq(prompts.id, p.id)))[0];
    expect(row.model).toBeNull();
  });

  it('refuses no id (VALIDATION-1003), nothing to change (VALIDATION-1012), an invalid template, bad input and a taken name; nothing changes', async () => {
    await create({ name: 'Upd Taken P', content: 'x' });
    const p = await create({ name: 'Upd Bad P', content: 'Hello {name}' });
    expectCode(await call('PUT', URL, 'owner', { body: { name: 'X' } }), 400, 'VALIDATION-1003');
    expectCode(await call('PUT', URL, 'owner', { body: { id: p.id } }), 400, 'VALIDATION-1012');
    expectCode(await call('PUT', URL, 'owner', { body: { id: p.id, name: 'upd taken p' } }), 400, 'VALIDATION-1001');
    const bad = await call('PUT', URL, 'owner', { body: { id: p.id, content: 'Hello {name' } });
    expectCode(bad, 400, 'VALIDATION-1000');
    expect(bad.body.data[0]).toMatchObject({ line: 1, column: 7 });
    // Switching the type alone re-parses the stored content: jinja2 blocks are not a valid f-string.
    const j = await create({ name: 'Upd Jinja', content: '{% if a %}{{ b }}{% endif %}', template_type: 'jinja2' });
    expectCode(await call('PUT', URL, 'owner', { body: { id: j.id, template_type: 'f-string' } }), 400, 'VALIDATION-1000');
    for (const over of [{ tags: ['1', '2', '3', '4', '5', '6'] }, { scene: 'x' }, { content: '' }, { created_by: f.u.admin.id }]) {
      expectCode(await call('PUT', URL, 'owner', { body: { id: p.id, ...over } }), 400, 'VALIDATION-1000');
    }
    expect(await read(p.id)).toEqual(p);
    expect((await read(j.id)).template_type).toBe('jinja2');
  });

  it('is refused to an ordinary member (403), another workspace (VALIDATION-1000) and without the header (VALIDATION-1008); nothing changes', async () => {
    const p = await create({ name: 'Upd Roles P', content: 'x' });
    const inB = await create({ name: 'Upd Roles PB', content: 'x' }, 'owner', f.wsB);
    expectCode(await call('PUT', URL, 'member', { body: { id: p.id, content: 'hijacked' } }), 403, 'PERMISSION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: inB.id, content: 'moved' } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'outsider', { body: { id: inB.id, content: 'moved' }, ws: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: MISSING, content: 'moved' } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: p.id, content: 'moved' }, ws: null }), 400, 'VALIDATION-1008');
    expect(await read(p.id)).toEqual(p);
    expect(await read(inB.id, 'owner', f.wsB)).toEqual(inB);
  });
});

describe('DELETE /console/prompts/:id', () => {
  it('lets owner and admin delete; refuses an ordinary member, another workspace and a missing header', async () => {
    const keep = await create({ name: 'Del Keep P', content: 'x' });
    const inB = await create({ name: 'Del Keep PB', content: 'x' }, 'owner', f.wsB);
    expectCode(await call('DELETE', `${URL}/${keep.id}`, 'member'), 403, 'PERMISSION-1000');
    expectCode(await call('DELETE', `${URL}/${inB.id}`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('DELETE', `${URL}/${inB.id}`, 'outsider', { ws: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await call('DELETE', `${URL}/${keep.id}`, 'owner', { ws: null }), 400, 'VALIDATION-1008');
    expect(await read(keep.id)).toEqual(keep);
    expect(await read(inB.id, 'owner', f.wsB)).toEqual(inB);
    for (const who of ['owner', 'admin'] as const) {
      const p = await create({ name: `Del By ${who}`, content: 'x' });
      expect((await call('DELETE', `${URL}/${p.id}`, who)).body).toEqual({ code: 0, msg: 'success', data: null });
      expectCode(await call('GET', `${URL}/${p.id}`, 'owner'), 400, 'VALIDATION-1000');
      expectCode(await call('DELETE', `${URL}/${p.id}`, who), 400, 'VALIDATION-1000');
    }
  });
});

describe('OpenAPI document', () => {
  it('describes the three groups with their workspace header and UI metadata', async () => {
    const doc = (await h.call('GET', '/api/v1/openapi.json')).body as unknown as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
    for (const path of [
      '/api/v1/console/credentials',
      '/api/v1/console/credentials/{credential_id}/secret-key',
      '/api/v1/console/databases/check-connection',
      '/api/v1/console/databases/{database_id}/password',
      '/api/v1/console/databases/{database_id}/check',
      '/api/v1/console/prompts/{template_type}/parse-variables',
      '/api/v1/console/prompts/{id}',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    const list = doc.paths['/api/v1/console/prompts'].get;
    expect(list.parameters?.some((p) => p.in === 'header' && p.name === 'x-workspace-id')).toBe(true);
    expect(JSON.stringify(doc.paths['/api/v1/console/credentials'].post)).toContain('"widget":"secret"');
  });
});
