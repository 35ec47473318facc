// @vitest-environment node
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnowledgeQuery } from '../../schemas/knowledge';
import type { HttpClient, KnowledgeService, McpService, SandboxService } from '../../src/plugin-sdk';
import { flow, runBuiltin, withBuiltinTools } from './builtin-kit';

/** A local server: echoes requests as JSON, serves a page, answers slowly or with an error status. */
let server: Server;
let base = '';
const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => resolve(body));
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await readBody(req);
    if (req.url === '/page') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end('<html><head><title>Tea &amp; cake</title><style>p{}</style></head><body><p>Green&nbsp;tea</p><script>alert(1)</script><p>Cake</p></body></html>');
    } else if (req.url === '/slow') {
      setTimeout(() => res.end('late'), 3000);
    } else if (req.url === '/missing') {
      res.statusCode = 404;
      res.end('not here');
    } else {
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-served-by', 'test');
      res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/**
 * A minimal client in the guarded client's shape (real HTTP through fetch, the timeout, a size
 * cap); the production one adds private-address blocking and has its own tests.
 */
const http: HttpClient = {
  async request({ method, url, headers, body, timeoutMs, signal }) {
    const res = await fetch(url, { method, headers, body: body as BodyInit | undefined, signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs ?? 10_000)]) });
    const text = await res.text();
    if (text.length > 1_000_000) throw new Error('The response is too large');
    return { status: res.status, headers: Object.fromEntries(res.headers), body: text };
  },
};

const kv = (key: string, value: string) => ({ key, value });
const textInput = (name: string) => ({ name, label: '', type: 'text', required: true, options: [], allowed_extensions: [] });

describe('built-in kinds: http-request', () => {
  const request = (config: Record<string, unknown>) =>
    flow(
      [
        ['s', 'start', { variables: [textInput('who')] }],
        ['h', 'http-request', config],
        [
          'e',
          'end',
          {
            outputs: [
              { name: 'status', selector: ['h', 'status_code'] },
              { name: 'body', selector: ['h', 'body'] },
              { name: 'headers', selector: ['h', 'headers'] },
            ],
          },
        ],
      ],
      [
        ['s', 'h'],
        ['h', 'e'],
      ],
    );

  it('sends method, rendered URL, params, headers, auth and a JSON body; returns status, body and headers', async () => {
    const doc = request({
      method: 'post',
      url: `${base}/echo/{{#s.who#}}`,
      params: [kv('q', '{{#s.who#}} x'), kv('page', '2')],
      headers: [kv('X-Trace', 'id-{{#s.who#}}')],
      bodyType: 'json',
      json: '{"name": "{{#s.who#}}"}',
      authType: 'bearer',
      token: '{{#env.TOKEN#}}',
    });
    doc.variables.env = [{ id: 'e1', name: 'TOKEN', type: 'secret', value: 's3cret', description: '' }] as never;
    const result = await runBuiltin(doc, { inputs: { who: 'ada' }, services: { http } }).result;
    expect(result).toMatchObject({ status: 'succeeded', outputs: { status: 200, headers: { 'x-served-by': 'test' } } });
    const echoed = JSON.parse(result.outputs.body as string);
    expect(echoed).toMatchObject({
      method: 'POST',
      url: '/echo/ada?q=ada+x&page=2',
      body: '{"name": "ada"}',
      headers: { 'x-trace': 'id-ada', authorization: 'Bearer s3cret', 'content-type': 'application/json' },
    });
  });

  it('urlencoded forms, basic auth and api keys in the query; an error status is an output, not a failure', async () => {
    const form = await runBuiltin(
      request({
        method: 'put',
        url: `${base}/form`,
        bodyType: 'x-www-form-urlencoded',
        formData: [{ key: 'a', type: 'text', value: '{{#s.who#}} & co', file: [] }],
        authType: 'basic',
        username: 'u',
        password: 'p',
      }),
      { inputs: { who: 'ada' }, services: { http } },
    ).result;
    const echoed = JSON.parse(form.outputs.body as string);
    expect(echoed).toMatchObject({ method: 'PUT', body: 'a=ada+%26+co', headers: { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` } });

    const key = await runBuiltin(request({ url: `${base}/k`, authType: 'api-key', apiKeyIn: 'query', apiKeyName: 'key', token: 'k1' }), { inputs: { who: 'x' }, services: { http } }).result;
    expect(JSON.parse(key.outputs.body as string).url).toBe('/k?key=k1');

    const missing = await runBuiltin(request({ url: `${base}/missing` }), { inputs: { who: 'x' }, services: { http } }).result;
    expect(missing).toMatchObject({ status: 'succeeded', outputs: { status: 404, body: 'not here' } });
  });

  it('the node timeout stops a slow request, and the fail branch takes over', async () => {
    const doc = flow(
      [
        ['s', 'start'],
        ['h', 'http-request', { url: `${base}/slow`, timeoutSeconds: 1, errorStrategy: 'fail-branch' }],
        ['ok', 'template-transform', { inputs: [], template: 'ok' }],
        ['bad', 'template-transform', { inputs: [{ name: 'why', selector: ['h', 'error_code'] }], template: 'failed: {{ why }}' }],
        ['e', 'end', { outputs: [{ name: 'out', selector: ['bad', 'output'] }] }],
      ],
      [
        ['s', 'h'],
        ['h', 'ok'],
        ['h', 'bad', 'fail-branch'],
        ['bad', 'e'],
      ],
    );
    const result = await runBuiltin(doc, { services: { http } }).result;
    expect(result).toMatchObject({ status: 'succeeded', outputs: { out: 'failed: RUN-1101' } });
  });

  it('without an HTTP client the node fails with HTTP-CLIENT-UNAVAILABLE', async () => {
    const result = await runBuiltin(request({ url: `${base}/x` }), { inputs: { who: 'x' } }).result;
    expect(result.error).toMatchObject({ code: 'HTTP-CLIENT-UNAVAILABLE', nodeId: 'h' });
  });
});

describe('built-in kinds: code', () => {
  const doc = (outputs: { name: string; type: string }[]) =>
    flow(
      [
        ['s', 'start', { variables: [textInput('x')] }],
        ['c', 'code', { inputs: [{ name: 'x', selector: ['s', 'x'] }], code: 'function main({ x }) { return {} }', outputs, timeoutSeconds: 5 }],
        ['e', 'end', { outputs: outputs.map((o) => ({ name: o.name, selector: ['c', o.name] })) }],
      ],
      [
        ['s', 'c'],
        ['c', 'e'],
      ],
    );
  const jobs: unknown[] = [];
  const sandbox: SandboxService = {
    run: async (job) => {
      jobs.push(job);
      return { len: String(job.inputs.x).length, words: String(job.inputs.x).split(' '), note: null, extra: 'dropped' };
    },
  };

  it('sends the code, inputs and limits to the sandbox and keeps only the declared outputs', async () => {
    const r = runBuiltin(doc([{ name: 'len', type: 'number' }, { name: 'words', type: 'array[string]' }, { name: 'note', type: 'object' }]), { inputs: { x: 'a b' }, services: { sandbox } });
    expect(await r.result).toMatchObject({ status: 'succeeded', outputs: { len: 3, words: ['a', 'b'], note: null } });
    expect(r.of('node_finished', 'c')[0].outputs).toEqual({ len: 3, words: ['a', 'b'], note: null });
    expect(jobs[0]).toMatchObject({ language: 'javascript', inputs: { x: 'a b' }, timeoutMs: 5000 });
  });

  it('a missing or mistyped output fails with a clear error', async () => {
    const wrong = await runBuiltin(doc([{ name: 'len', type: 'string' }]), { inputs: { x: 'a' }, services: { sandbox } }).result;
    expect(wrong.error).toMatchObject({ code: 'CODE-OUTPUT-TYPE', message: 'The output "len" should be string but the code returned number' });
    const missing = await runBuiltin(doc([{ name: 'total', type: 'number' }]), { inputs: { x: 'a' }, services: { sandbox } }).result;
    expect(missing.error).toMatchObject({ code: 'CODE-OUTPUT-MISSING' });
    expect((await runBuiltin(doc([{ name: 'len', type: 'number' }]), { inputs: { x: 'a' } }).result).error).toMatchObject({ code: 'CODE-SANDBOX-UNAVAILABLE' });
  });
});

describe('built-in kinds: tool, mcp, knowledge-retrieval', () => {
  const toolFlow = (toolId: string, functionId: string, params: unknown[]) =>
    flow(
      [
        ['s', 'start', { variables: [textInput('expr')] }],
        ['t', 'tool', { toolId, functionId, params }],
        [
          'e',
          'end',
          {
            outputs: [
              { name: 'text', selector: ['t', 'text'] },
              { name: 'json', selector: ['t', 'json'] },
            ],
          },
        ],
      ],
      [
        ['s', 't'],
        ['t', 'e'],
      ],
    );

  it('the built-in calculator evaluates the expression without eval; a bad one fails clearly', async () => {
    const calc = (expr: string) => runBuiltin(toolFlow('builtin', 'calculator', [{ name: 'expression', source: 'variable', selector: ['s', 'expr'], text: '' }]), { inputs: { expr }, services: { tools: withBuiltinTools() } }).result;
    expect(await calc('2 * (3 + 4) ^ 2 - sqrt(16)')).toMatchObject({ status: 'succeeded', outputs: { text: '94', json: [{ result: 94 }] } });
    const bad = await calc('process.exit(1)');
    expect(bad.error).toMatchObject({ code: 'TOOL-INVALID-ARGUMENT' });
    expect(bad.error!.message).toContain('Unknown name "process"');
  });

  it('the built-in web page reader fetches through the HTTP client and returns readable text', async () => {
    const result = await runBuiltin(toolFlow('builtin', 'webpage_reader', [{ name: 'url', source: 'text', selector: [], text: `${base}/page` }]), { inputs: { expr: 'x' }, services: { tools: withBuiltinTools(undefined, http) } }).result;
    expect(result).toMatchObject({ status: 'succeeded', outputs: { text: 'Tea & cake\n\nGreen tea\nCake', json: [{ title: 'Tea & cake' }] } });
  });

  it('built-in tools run only in the tool service: the node holds no tool code of its own', async () => {
    const calc = toolFlow('builtin', 'calculator', [{ name: 'expression', source: 'text', selector: [], text: '1 + 1' }]);
    expect((await runBuiltin(calc, { inputs: { expr: 'x' } }).result).error).toMatchObject({ code: 'TOOL-SERVICE-UNAVAILABLE' });
    const seen: unknown[] = [];
    const tools = { call: async (t: unknown, args: Record<string, unknown>) => (seen.push([t, args]), { text: 'from the service', json: [] }) };
    expect(await runBuiltin(calc, { inputs: { expr: 'x' }, services: { tools } }).result).toMatchObject({ outputs: { text: 'from the service' } });
    expect(seen).toEqual([[{ provider: 'builtin', name: 'calculator' }, { expression: '1 + 1' }]]);
  });

  it('a workspace tool goes through the tool service with rendered params', async () => {
    const seen: unknown[] = [];
    const tools = { call: async (t: unknown, args: Record<string, unknown>) => (seen.push([t, args]), [{ id: 1 }, { id: 2 }]) };
    const result = await runBuiltin(toolFlow('crm', 'search', [{ name: 'q', source: 'text', selector: [], text: 'name={{#s.expr#}}' }]), { inputs: { expr: 'ada' }, services: { tools } }).result;
    expect(result).toMatchObject({ status: 'succeeded', outputs: { text: '[{"id":1},{"id":2}]', json: [{ id: 1 }, { id: 2 }] } });
    expect(seen).toEqual([[{ provider: 'crm', name: 'search' }, { q: 'name=ada' }]]);
  });

  it('an MCP tool goes through the MCP service; an error result fails the node', async () => {
    const mcp: McpService = {
      callTool: async ({ serverId, name }, args) =>
        args.fail ? { content: [{ type: 'text', text: 'boom' }], isError: true } : { content: [{ type: 'text', text: `${serverId}/${name}: ${String(args.q)}` }], structuredContent: { n: 1 } },
    };
    const doc = (args: unknown[]) =>
      flow(
        [
          ['s', 'start'],
          ['m', 'mcp', { serverId: 'srv', toolName: 'lookup', args }],
          ['e', 'end', { outputs: [{ name: 'text', selector: ['m', 'text'] }] }],
        ],
        [
          ['s', 'm'],
          ['m', 'e'],
        ],
      );
    expect(await runBuiltin(doc([{ name: 'q', source: 'text', selector: [], text: 'tea' }]), { services: { mcp } }).result).toMatchObject({ outputs: { text: 'srv/lookup: tea' } });
    expect((await runBuiltin(doc([{ name: 'fail', source: 'text', selector: [], text: '1' }]), { services: { mcp } }).result).error).toMatchObject({ code: 'MCP-TOOL-ERROR', message: 'boom' });
    expect((await runBuiltin(doc([]), {}).result).error).toMatchObject({ code: 'MCP-UNAVAILABLE' });
  });

  const kr = flow(
    [
      ['s', 'start', { variables: [textInput('q')] }],
      ['k', 'knowledge-retrieval', { query: ['s', 'q'], datasetIds: ['d1'], topK: 2, scoreThresholdEnabled: true, scoreThreshold: 0.4 }],
      ['e', 'end', { outputs: [{ name: 'result', selector: ['k', 'result'] }] }],
    ],
    [
      ['s', 'k'],
      ['k', 'e'],
    ],
  );

  it('knowledge retrieval without a knowledge service fails with KNOWLEDGE-UNAVAILABLE, never an empty result', async () => {
    const result = await runBuiltin(kr, { inputs: { q: 'tea' } }).result;
    expect(result).toMatchObject({ status: 'failed', error: { code: 'KNOWLEDGE-UNAVAILABLE', nodeId: 'k' }, outputs: {} });
    expect(result.error!.message).toContain('not available');
  });

  it('knowledge retrieval with a service passes the settings and maps the passages', async () => {
    const queries: unknown[] = [];
    const knowledge: KnowledgeService = {
      retrieve: async (q) => (queries.push(q), [{ content: 'Green tea', score: 0.9, documentId: 'doc1', datasetId: 'd1', title: 'Teas' }]),
    };
    const result = await runBuiltin(kr, { inputs: { q: 'tea' }, services: { knowledge } }).result;
    expect(result.outputs.result).toEqual([{ content: 'Green tea', title: 'Teas', score: 0.9, dataset_id: 'd1', document_id: 'doc1', segment_id: '', source: '', metadata: {} }]);
    expect(queries[0]).toMatchObject({ datasetIds: ['d1'], text: 'tea', topK: 2, scoreThreshold: 0.4, mode: 'hybrid', vectorWeight: 0.7 });
    // The node speaks the knowledge query's own schema, spelling of the modes included.
    const fullText = structuredClone(kr);
    Object.assign(fullText.nodes[1].config, { retrievalMode: 'full_text', metadataFilterMode: 'manual', metadataConditions: [{ name: 'lang', operator: 'is', value: 'en' }] });
    await runBuiltin(fullText, { inputs: { q: 'tea' }, services: { knowledge } }).result;
    expect(KnowledgeQuery.parse(queries[1])).toMatchObject({ mode: 'full_text', metadataFilter: { logicalOperator: 'and', conditions: [{ name: 'lang', operator: 'is', value: 'en' }] } });
  });

  it('knowledge retrieval says which passages came from the knowledge graph (as the hit test does)', async () => {
    const knowledge: KnowledgeService = {
      retrieve: async () => [
        { content: 'Green tea', score: 0.9, segmentId: 's1', source: 'full_text' },
        { content: 'Tea gardens of Hangzhou', score: 0.55, segmentId: 's2', source: 'graph' },
      ],
    };
    const result = await runBuiltin(kr, { inputs: { q: 'tea' }, services: { knowledge } }).result;
    expect((result.outputs.result as { segment_id: string; source: string }[]).map((r) => [r.segment_id, r.source])).toEqual([
      ['s1', 'full_text'],
      ['s2', 'graph'],
    ]);
  });
});
