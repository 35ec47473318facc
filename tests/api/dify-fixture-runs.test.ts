import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FlowDocument, FlowNode } from '../../schemas/flow';
import { useStudio } from './harness';
import { upload, uploadOk, useTempDataDir } from './knowledge-kit';
import { createApp, flow, parseSse, RUNS, saveDraft } from './runs-kit';
import { expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// Issue 26's "flows of code, template, if-else, iteration and list nodes run": the real Dify exports
// (src/canvas/dsl/fixtures/dify-real) imported through POST /apps/import and RUN by the real engine.
// A file made only of such nodes runs whole; from every other file each top-level code and template
// node runs as a sub-flow start → node → end, its inputs fed from the start. None of the files
// documents expected outputs (their notes describe the flow, not sample results), so a finished run
// is checked for its shape: every declared output present with its type. A failed run must fail on
// a catalogue code with a message. The table (file, node, ran, outcome) is printed.

const h = useStudio();
useTempDataDir(h);
let f: Fixture;
const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });
const DIR = path.join(import.meta.dirname, '../../src/canvas/dsl/fixtures/dify-real');
const FILES = fs.readdirSync(DIR).filter((n) => n.endsWith('.yml')).sort();
/** Kinds that run without a model, tool or knowledge base. */
const PURE = new Set(['start', 'end', 'answer', 'code', 'template-transform', 'if-else', 'iteration', 'iteration-start', 'list-operator', 'variable-aggregator', 'note']);
/** What every fed input gets: text that is also JSON, so code parsing its input has something to parse. */
const SAMPLE = '{"text": "hello world", "items": ["a", "b"]}';

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'difyruns');
});

type Row = { file: string; node: string; ran: string; outcome: string };

const typeOk = (type: string, v: unknown): boolean =>
  type === 'string' ? typeof v === 'string' : type === 'number' ? typeof v === 'number' : type === 'object' ? !!v && typeof v === 'object' && !Array.isArray(v) : type.startsWith('array') ? Array.isArray(v) : true;

/** Runs a workflow draft; the row's outcome, and the check of its shape or failure. */
async function run(appId: string, inputs: Record<string, unknown>, outputs: { name: string; type: string }[]): Promise<string> {
  const r = await h.call('POST', `${RUNS(appId)}/draft/workflow-runs`, { ...member(), body: { inputs } });
  if (r.status !== 200) {
    expect(r.body.code, r.raw.body).toMatch(/^[A-Z]+-/);
    return `refused ${r.body.code}: ${String(r.body.msg).slice(0, 80)}`;
  }
  const last = parseSse(r.raw.body).at(-1) as { type: string; outputs?: Record<string, unknown>; error?: { code: string; message: string } };
  if (last.type === 'run_finished') {
    for (const o of outputs) expect(typeOk(o.type, last.outputs?.[o.name]), `${o.name}: ${JSON.stringify(last.outputs)}`).toBe(true);
    return `finished ${JSON.stringify(last.outputs).slice(0, 80)}`;
  }
  expect(last.type).toBe('run_failed');
  expect(last.error?.code).toMatch(/^[A-Z]+-/);
  expect(last.error?.message).toBeTruthy();
  return `failed ${last.error!.code}: ${last.error!.message.split('\n').at(-1)!.slice(0, 80)}`;
}

/** A node as the only step: its inputs come from the start, its outputs go to the end. */
function alone(n: FlowNode): { doc: FlowDocument; outputs: { name: string; type: string }[] } {
  const inputs = (n.config.inputs as { name: string; selector: string[] }[]).map((i) => ({ ...i, selector: ['s', i.name] }));
  const outputs = n.kind === 'code' ? (n.config.outputs as { name: string; type: string }[]) : [{ name: 'output', type: 'string' }];
  const variables = inputs.map((i) => ({ name: i.name, label: i.name, type: 'paragraph', required: false, options: [], allowed_extensions: [] }));
  const doc = flow(
    [
      ['s', 'start', { variables }],
      ['n', n.kind, { ...n.config, inputs }],
      ['e', 'end', { outputs: outputs.map((o) => ({ name: o.name, selector: ['n', o.name] })) }],
    ],
    [
      ['s', 'n'],
      ['n', 'e'],
    ],
  );
  return { doc, outputs };
}

describe('runs over the real Dify exports', () => {
  it('runs whole files of model-free nodes, and every top-level code and template node of the others', async () => {
    const rows: Row[] = [];
    const bench = await createApp(h, f.u.member.token, f.wsA, 'Sub-flow bench', flow([['s', 'start'], ['e', 'end']], [['s', 'e']]));
    for (const file of FILES) {
      const imported = expectOk(await h.call('POST', '/api/v1/console/apps/import', { ...member(), body: { content: fs.readFileSync(path.join(DIR, file), 'utf8') } }));
      const draft = expectOk(await h.call('GET', `/api/v1/console/apps/${imported.app.id}/workflow`, member()));
      const doc = draft.document as FlowDocument;
      const fileInputs = (doc.nodes.find((n) => n.kind === 'start')?.config.variables as { type: string }[] | undefined)?.some((v) => v.type.includes('file'));
      if (doc.mode === 'workflow' && doc.nodes.every((n) => PURE.has(n.kind)) && !fileInputs) {
        const start = doc.nodes.find((n) => n.kind === 'start')!;
        const inputs = Object.fromEntries((start.config.variables as { name: string }[]).map((v) => [v.name, SAMPLE]));
        const end = doc.nodes.find((n) => n.kind === 'end')!;
        const outputs = (end.config.outputs as { name: string }[]).map((o) => ({ name: o.name, type: 'any' }));
        rows.push({ file, node: '(whole file)', ran: 'yes', outcome: await run(imported.app.id, inputs, outputs) });
        continue;
      }
      for (const n of doc.nodes.filter((x) => (x.kind === 'code' || x.kind === 'template-transform') && !x.parentId)) {
        const { doc: sub, outputs } = alone(n);
        await saveDraft(h, f.u.member.token, f.wsA, bench, sub);
        const inputs = Object.fromEntries((sub.nodes[0]!.config.variables as { name: string }[]).map((v) => [v.name, SAMPLE]));
        rows.push({ file, node: `${n.kind} ${n.title}`.slice(0, 40), ran: 'yes', outcome: await run(bench, inputs, outputs) });
      }
    }
    console.info(['file | node | ran | outcome', ...rows.map((r) => `${r.file} | ${r.node} | ${r.ran} | ${r.outcome}`)].join('\n'));
    const finished = rows.filter((r) => r.outcome.startsWith('finished')).length;
    console.info(`runs ${rows.length}, finished ${finished}, failed or refused ${rows.length - finished}`);
    expect(rows.length).toBeGreaterThan(20);
    // Most of the model-free steps run on sample text; the rest are listed above with their reasons.
    expect(finished).toBeGreaterThan(rows.length / 2);
  }, 600_000);
});

// simple-kimi.yml's document branch as a sub-flow, with the file's own nodes and connections: the
// if-else "条件分支 3" sends a question with documents (Dify's file sub-condition "files contain one
// whose type is in document") to the list operator "Doc", which keeps the user's documents (at most
// 2); the document extractor reads the first one and the template "template" wraps its text in
// <docs><doc id="…">; the model after it is an answer here. A question with an image takes the
// if-else's image branch (tested first), which is not part of this sub-flow: no answer.
describe("simple-kimi's document branch (list operator, document extractor, template) on uploaded files", () => {
  it("keeps the uploaded documents and wraps the first one's text as the template says", async () => {
    const imported = expectOk(await h.call('POST', '/api/v1/console/apps/import', { ...member(), body: { content: fs.readFileSync(path.join(DIR, 'simple-kimi.yml'), 'utf8'), name: 'simple-kimi (documents)' } }));
    expect(JSON.stringify(imported.report.warnings)).not.toContain('fileCondition');
    const file = expectOk(await h.call('GET', `/api/v1/console/apps/${imported.app.id}/workflow`, member())).document as FlowDocument;
    const byTitle = (title: string) => file.nodes.find((n) => n.title === title)!;
    const chain = ['条件分支 3', 'Doc', '文档提取器', 'template'].map(byTitle);
    const ids = chain.map((n) => n.id);
    const base = flow([['s', 'start']], [], 'chatflow');
    const sub: FlowDocument = {
      ...base,
      nodes: [...base.nodes, ...chain, { id: 'a', kind: 'answer', kindVersion: 1, title: 'a', position: { x: 0, y: 0 }, config: { answer: `{{#${ids[3]}.output#}}` } }],
      edges: [
        { id: 'e0', source: 's', sourceHandle: 'source', target: ids[0]!, targetHandle: 'target' },
        ...file.edges.filter((e) => ids.includes(e.source) && ids.includes(e.target)),
        { id: 'e1', source: ids[3]!, sourceHandle: 'source', target: 'a', targetHandle: 'target' },
      ],
    };
    // start → if-else, its document branch → Doc → extractor → template → answer.
    expect(sub.edges).toHaveLength(5);
    const app = await createApp(h, f.u.member.token, f.wsA, 'simple-kimi documents', sub);
    const later = await uploadOk(h, f.u.member.token, f.wsA, 'later.txt', 'Read second.');
    const notes = await uploadOk(h, f.u.member.token, f.wsA, 'notes.md', '# Spring festival\n\nCouplets hang on both sides of the door.');
    const r = await h.call('POST', `${RUNS(app)}/draft/chat-messages`, { ...member(), body: { query: 'read', files: [{ file_id: notes, name: 'notes.md' }, { file_id: later, name: 'later.txt' }] } });
    expect(r.status, r.raw.body).toBe(200);
    const done = parseSse(r.raw.body).at(-1) as { type: string; answer?: string };
    expect(done.type, JSON.stringify(done)).toBe('run_finished');
    // The extractor gives one text (Dify's is_array_file: false) and the template loops over it, so, as
    // Jinja does in Dify, each character of the first document becomes its own numbered <doc>.
    const docs = [...done.answer!.matchAll(/<docs>\n<doc id="(\d+)">\n([\s\S])\n<\/doc>\n<\/docs>/g)];
    expect(docs.map((m) => Number(m[1]))).toEqual(docs.map((_, i) => i + 1));
    const text = docs.map((m) => m[2]).join('');
    expect(text).toMatch(/^# Spring festival\s+Couplets hang on both sides of the door\.\s*$/);
    expect(done.answer).not.toContain('Read second');

    const photo = expectOk(await upload(h, f.u.member.token, f.wsA, 'photo.jpg', fs.readFileSync(path.join(import.meta.dirname, '../fixtures/photo-1000x750.jpg')), 'chat')).id as string;
    const withImage = await h.call('POST', `${RUNS(app)}/draft/chat-messages`, { ...member(), body: { query: 'read', files: [{ file_id: notes, name: 'notes.md' }, { file_id: photo, name: 'photo.jpg' }] } });
    const imageRun = parseSse(withImage.raw.body);
    expect(imageRun.at(-1)).toMatchObject({ type: 'run_finished' });
    const started = imageRun.filter((e) => (e as { type: string }).type === 'node_started').map((e) => (e as { nodeId?: string }).nodeId);
    expect(started).toContain(ids[0]);
    expect(started).not.toContain(ids[1]);
  }, 60_000);
});

// search-master.yml's "Iteration 2", the only fixture with an if-else inside an iteration, run with the
// file's own inner nodes and connections: for each link, "HTTP Request" fetches it, "IF/ELSE" goes on
// only when the status is 200, "JinaReader" reads the page and "Template 2" writes "title\ntext". The
// builder's part, as the import's warnings ask: JinaReader becomes a custom tool (a local reader service
// with the same `url` parameter), and the links come from a small code node in place of the file's
// search steps (a search engine and models). A link that answers 404 takes the else branch: its
// iteration yields nothing from Template 2, as in Dify (null).
describe("search-master's iteration with an if-else inside (HTTP request, if-else, tool, template)", () => {
  it('reads the pages that answer 200 and skips the others', async () => {
    const server = http.createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      if (u.pathname === '/read') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`Read: ${u.searchParams.get('url')}`);
        return;
      }
      res.writeHead(u.pathname === '/page/ok' ? 200 : 404, { 'content-type': 'text/plain' });
      res.end(u.pathname === '/page/ok' ? 'the page' : 'not here');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    h.allowOutbound(base);
    try {
      const owner = { token: f.u.owner.token, workspaceId: f.wsA };
      const tool = expectOk(await h.call('POST', '/api/v1/console/tools', { ...owner, body: { name: 'Reader' } }));
      const fn = expectOk(await h.call('POST', `/api/v1/console/tools/${tool.id}/functions`, { ...owner, body: { name: 'jina_reader', url: `${base}/read`, params: [{ param_key: 'url', data_type: 'string', request_type: 'query_params', is_not_null: true }] } }));

      const imported = expectOk(await h.call('POST', '/api/v1/console/apps/import', { ...member(), body: { content: fs.readFileSync(path.join(DIR, 'search-master.yml'), 'utf8'), name: 'search-master (pages)' } }));
      const file = expectOk(await h.call('GET', `/api/v1/console/apps/${imported.app.id}/workflow`, member())).document as FlowDocument;
      const iteration = file.nodes.find((n) => n.title === 'Iteration 2')!;
      const inner = file.nodes.filter((n) => n.parentId === iteration.id);
      expect(inner.map((n) => n.kind).sort()).toEqual(['http-request', 'if-else', 'iteration-start', 'template-transform', 'tool']);
      const ids = new Set([iteration.id, ...inner.map((n) => n.id)]);
      const reader = inner.find((n) => n.kind === 'tool')!;
      const template = inner.find((n) => n.kind === 'template-transform')!;
      const links: FlowNode = {
        id: 'links',
        kind: 'code',
        kindVersion: 1,
        title: 'links',
        position: { x: 0, y: 0 },
        config: { language: 'javascript', inputs: [], code: `function main() {\n  return { result: ['${base}/page/ok', '${base}/page/missing'] };\n}`, outputs: [{ name: 'result', type: 'array[string]' }] },
      };
      const base0 = flow([['s', 'start']], []);
      const sub: FlowDocument = {
        ...base0,
        nodes: [
          ...base0.nodes,
          links,
          { ...iteration, config: { ...iteration.config, iterator: ['links', 'result'] } },
          ...inner.map((n) => (n.id === reader.id ? { ...n, config: { ...n.config, toolId: tool.id, functionId: fn.id } } : n)),
          { id: 'e', kind: 'end', kindVersion: 1, title: 'e', position: { x: 0, y: 0 }, config: { outputs: [{ name: 'pages', selector: [iteration.id, 'output'] }] } },
        ],
        edges: [
          { id: 'e0', source: 's', sourceHandle: 'source', target: 'links', targetHandle: 'target' },
          { id: 'e1', source: 'links', sourceHandle: 'source', target: iteration.id, targetHandle: 'target' },
          ...file.edges.filter((e) => ids.has(e.source) && ids.has(e.target)),
          { id: 'e2', source: iteration.id, sourceHandle: 'source', target: 'e', targetHandle: 'target' },
        ],
      };
      const app = await createApp(h, f.u.member.token, f.wsA, 'search-master pages', sub);
      const r = await h.call('POST', `${RUNS(app)}/draft/workflow-runs`, { ...member(), body: { inputs: {} } });
      expect(r.status, r.raw.body).toBe(200);
      const events = parseSse(r.raw.body);
      const done = events.at(-1) as { type: string; outputs?: { pages: unknown[] } };
      expect(done.type, JSON.stringify(done)).toBe('run_finished');
      // Template 2 ("{{ title }}\n{{ text }}"): the link, then what the reader read; nothing for the 404.
      expect(done.outputs!.pages).toEqual([`${base}/page/ok\nRead: ${base}/page/ok`, null]);
      const templateRuns = events.filter((e) => (e as { type: string; nodeId?: string }).type === 'node_finished' && (e as { nodeId?: string }).nodeId === template.id);
      expect(templateRuns).toHaveLength(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});
