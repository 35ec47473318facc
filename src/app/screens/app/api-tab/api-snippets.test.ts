import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createEmptyFlow, type FlowDocument, type FlowMode } from '../../../../../schemas/flow';
import { bubbleSnippet, iframeSnippet } from '../embed-snippets';
import { buildEndpoints, exampleInputs, startInputs, type EndpointDoc } from './api-docs';
import { API_KEY_PLACEHOLDER, curlSnippet, fetchSnippet, shellQuote, type CallExample } from './api-snippets';

const BASE = 'https://weft.example/v1';

/** Labels and options that break naive quoting in a shell, in JavaScript or in JSON. */
const NASTY = `it's "quoted" \\ back\\slash $(touch /tmp/pwned) \`id\` $HOME\nnew line </script> 😀 \u2028`;

function documentWith(mode: FlowMode, variables: Record<string, unknown>[]): FlowDocument {
  const doc = createEmptyFlow(mode);
  return { ...doc, nodes: doc.nodes.map((n) => (n.kind === 'start' ? { ...n, config: { variables } } : n)) };
}

const FIELDS = [
  { name: 'question', label: NASTY, type: 'text', required: true, options: [], allowed_extensions: [] },
  { name: 'tone', label: 'Tone', type: 'select', required: false, options: ["it's formal", 'casual'], allowed_extensions: [] },
  { name: 'count', label: 'Count', type: 'number', required: false, options: [], allowed_extensions: [] },
  { name: 'photo', label: 'Photo', type: 'file', required: false, options: [], allowed_extensions: ['.png', '.JPG'] },
  { name: 'papers', label: 'Papers', type: 'file-list', required: false, options: [], allowed_extensions: ['.pdf'] },
];

/** Runs a curl snippet in a real POSIX shell with `curl` replaced by a function that prints its arguments. */
function shellArgs(snippet: string): string[] {
  const script = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${snippet}`;
  const r = spawnSync('sh', ['-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: '/nonexistent' } });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\0').slice(0, -1);
}

/** Runs a fetch snippet as JavaScript with a recording fetch; answers what it was called with. */
async function runFetch(snippet: string): Promise<{ url: string; init: RequestInit & { headers: Record<string, string> } }> {
  const seen: { url: string; init: RequestInit & { headers: Record<string, string> } }[] = [];
  const fakeFetch = async (url: string, init: RequestInit & { headers: Record<string, string> }) => {
    seen.push({ url, init });
    return { json: async () => ({ ok: true }) };
  };
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;
  await new AsyncFunction('fetch', 'console', 'file', snippet)(fakeFetch, { log: () => {} }, new Blob(['%PDF']));
  expect(seen).toHaveLength(1);
  return seen[0];
}

const endpoint = (docs: EndpointDoc[], id: string) => docs.find((e) => e.id === id)!;

describe('startInputs and examples', () => {
  it('reads the start form and gives each field an example in the shape the API takes', () => {
    const inputs = startInputs(documentWith('workflow', FIELDS));
    expect(inputs.map((i) => i.name)).toEqual(['question', 'tone', 'count', 'photo', 'papers']);
    expect(exampleInputs(inputs)).toEqual({
      question: NASTY,
      tone: "it's formal",
      count: 1,
      photo: { type: 'image', transfer_method: 'local_file', upload_file_id: 'FILE_ID' },
      papers: [{ type: 'document', transfer_method: 'local_file', upload_file_id: 'FILE_ID' }],
    });
  });

  it('skips fields without a name and tolerates a document without a start node', () => {
    expect(startInputs(documentWith('workflow', [{ label: 'no name' }, { name: 'ok' }]))).toMatchObject([{ name: 'ok', type: 'text', required: true }]);
    expect(startInputs({ nodes: [] })).toEqual([]);
    expect(startInputs(null)).toEqual([]);
  });
});

describe('buildEndpoints', () => {
  it('documents a workflow: run, stop, upload, parameters (no chat or OpenAI endpoints)', () => {
    const docs = buildEndpoints('app-1', 'workflow', documentWith('workflow', FIELDS));
    expect(docs.map((e) => e.id)).toEqual(['run', 'runStop', 'upload', 'parameters']);
    expect(endpoint(docs, 'run').call).toMatchObject({ method: 'POST', path: '/workflows/run', json: { response_mode: 'blocking', user: 'user-123' } });
    expect(endpoint(docs, 'run').responses.map((r) => r.kind)).toEqual(['json', 'stream']);
  });

  it('documents a chat app with the Dify paths and the OpenAI-compatible ones last', () => {
    const docs = buildEndpoints('app-1', 'chatflow', documentWith('chatflow', FIELDS));
    expect(docs.map((e) => e.id)).toEqual(['chat', 'chatStop', 'conversations', 'rename', 'deleteConversation', 'messages', 'feedback', 'upload', 'parameters', 'completions', 'models']);
    expect(endpoint(docs, 'completions').call.json).toMatchObject({ model: 'app-1', messages: [{ role: 'user', content: 'Hello' }] });
    expect(endpoint(docs, 'completions').responses[1].text.endsWith('data: [DONE]\n\n')).toBe(true);
    // The parameters answer carries the start form in Dify's user_input_form shape.
    const params = JSON.parse(endpoint(docs, 'parameters').responses[0].text);
    expect(params.user_input_form[0]).toEqual({ 'text-input': { label: NASTY, variable: 'question', required: true, default: '' } });
    expect(params.user_input_form[1]).toEqual({ select: { label: 'Tone', variable: 'tone', required: false, default: '', options: ["it's formal", 'casual'] } });
  });

  it('streams parse as SSE data lines of JSON', () => {
    for (const e of buildEndpoints('app-1', 'agent', documentWith('agent', FIELDS))) {
      for (const r of e.responses) {
        if (r.kind === 'json') expect(() => JSON.parse(r.text)).not.toThrow();
        // A frame is `data: …`, with Dify's `id: N` line before it (for resuming with Last-Event-ID).
        else for (const frame of r.text.split('\n\n').filter(Boolean)) expect(frame).toMatch(/^(id: \d+\n)?data: /);
      }
    }
  });
});

describe('curl snippets', () => {
  it('quote single quotes for the shell', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });

  it('pass the JSON body to curl byte for byte, whatever the labels and options hold', () => {
    const run = endpoint(buildEndpoints('app-1', 'workflow', documentWith('workflow', FIELDS)), 'run');
    const snippet = curlSnippet(BASE, run.call);
    expect(snippet).toContain(`Bearer ${API_KEY_PLACEHOLDER}`);
    const args = shellArgs(snippet);
    expect(args.slice(0, 3)).toEqual(['-X', 'POST', `${BASE}/workflows/run`]);
    expect(args[args.indexOf('-H') + 1]).toBe('Authorization: Bearer {{API_KEY}}');
    const body = JSON.parse(args[args.indexOf('-d') + 1]);
    expect(body).toEqual(run.call.json);
    expect(body.inputs.question).toBe(NASTY);
  });

  it('encode the query of GET lists and send multipart fields for uploads', () => {
    const get: CallExample = { method: 'GET', path: '/conversations', query: { user: "o'neil & co", limit: 20 } };
    expect(shellArgs(curlSnippet(BASE, get))[2]).toBe(`${BASE}/conversations?user=o'neil%20%26%20co&limit=20`);
    const upload = endpoint(buildEndpoints('app-1', 'workflow', null), 'upload');
    const args = shellArgs(curlSnippet(BASE, upload.call));
    expect(args.filter((_, i) => args[i - 1] === '-F')).toEqual(['user=user-123', 'file=@report.pdf;type=application/pdf']);
    expect(args).not.toContain('Content-Type: application/json');
  });
});

describe('fetch snippets', () => {
  it('are JavaScript that sends the same JSON body, whatever the labels and options hold', async () => {
    const chat = endpoint(buildEndpoints('app-1', 'chatflow', documentWith('chatflow', FIELDS)), 'chat');
    const { url, init } = await runFetch(fetchSnippet(BASE, chat.call));
    expect(url).toBe(`${BASE}/chat-messages`);
    expect(init.method).toBe('POST');
    expect(init.headers).toEqual({ Authorization: 'Bearer {{API_KEY}}', 'Content-Type': 'application/json' });
    expect(JSON.parse(init.body as string)).toEqual(chat.call.json);
    expect(JSON.parse(init.body as string).inputs.question).toBe(NASTY);
  });

  it('build a FormData for uploads and a plain GET for lists', async () => {
    const upload = endpoint(buildEndpoints('app-1', 'workflow', null), 'upload');
    const sent = await runFetch(fetchSnippet(BASE, upload.call));
    expect(sent.init.body).toBeInstanceOf(FormData);
    expect((sent.init.body as FormData).get('user')).toBe('user-123');
    expect((sent.init.body as FormData).get('file')).toBeInstanceOf(Blob);
    expect(sent.init.headers).toEqual({ Authorization: 'Bearer {{API_KEY}}' });
    const list = await runFetch(fetchSnippet(BASE, { method: 'GET', path: '/messages', query: { conversation_id: 'c"1', user: 'u' } }));
    expect(list.url).toBe(`${BASE}/messages?conversation_id=c%221&user=u`);
    expect(list.init.body).toBeUndefined();
  });
});

describe('embed snippets', () => {
  it('give the iframe of the chrome-less chat (the text the distribute tab shows)', () => {
    expect(iframeSnippet('https://weft.example/', 'a1')).toBe(
      '<iframe src="https://weft.example/portal/chat/a1" style="width: 100%; height: 100%; min-height: 700px" frameborder="0" allow="clipboard-write; microphone"></iframe>',
    );
  });

  it('give the bubble script with only the options that differ from the defaults', () => {
    expect(bubbleSnippet('https://weft.example', 'a1')).toBe('<script src="https://weft.example/embed.js" data-app-id="a1" defer></script>');
    expect(bubbleSnippet('https://weft.example', 'a1', { position: 'left', color: '#0F766E', open: true })).toBe(
      '<script src="https://weft.example/embed.js" data-app-id="a1" data-position="left" data-color="#0f766e" data-open="true" defer></script>',
    );
  });

  it('escape what could end an attribute and drop a colour that is not a hex colour', () => {
    const html = bubbleSnippet('https://weft.example', 'a"1<x>', { color: 'red" onload="alert(1)' });
    expect(html).toBe('<script src="https://weft.example/embed.js" data-app-id="a&quot;1&lt;x&gt;" defer></script>');
    expect(iframeSnippet('https://weft.example', 'a"1')).toContain('src="https://weft.example/portal/chat/a%221"');
  });
});
