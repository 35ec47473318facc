import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeServer } from './fake-providers';
import { useStudio } from './harness';
import { modelProvider } from './portal-kit';
import { chatFlow, createKey, difyEvents, publishedApp, sayFlow, v1, type Owner } from './public-kit';
import { setUpWorkspaces, type Fixture } from './workspace-fixture';

// A Dify client works against Weft by changing base URL and key: the requests recorded from Dify's
// documentation (tests/fixtures/dify-api/, each with its source) are sent to /v1, and every key of
// Dify's recorded answer must be in Weft's with the same JSON type.

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/dify-api');
const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8'));

const h = useStudio();
let f: Fixture;
let fake: FakeServer;
let chatKey = '';
let flowKey = '';
const owner = (): Owner => ({ token: f.u.owner.token, workspaceId: f.wsA });

type Errata = Record<string, { type: string }>;
const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
/** Maps whose keys the app defines (its start form, its end node): only their type is compared. */
const APP_DEFINED = new Set(['inputs', 'outputs']);

/** Where `ours` lacks a key of `recorded` or has another JSON type (arrays: their first items). */
function differences(recorded: unknown, ours: unknown, at: string, errata: Errata = {}): string[] {
  const allowed = errata[at]?.type.split('|');
  if (allowed) return allowed.includes(kind(ours)) ? [] : [`${at}: ${kind(ours)}, expected ${allowed.join(' or ')}`];
  if (kind(recorded) !== kind(ours)) return [`${at}: ${kind(ours)}, Dify has ${kind(recorded)}`];
  if (Array.isArray(recorded) && Array.isArray(ours)) return recorded.length && ours.length ? differences(recorded[0], ours[0], `${at}[0]`, errata) : [];
  if (kind(recorded) !== 'object' || APP_DEFINED.has(at.split('.').at(-1)!.replace(/\[0\]$/, ''))) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(recorded as Record<string, unknown>)) {
    const o = ours as Record<string, unknown>;
    if (!(k in o)) out.push(`${at}.${k}: missing`);
    else out.push(...differences(v, o[k], at ? `${at}.${k}` : k, errata));
  }
  return out;
}

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'difyshape');
  fake = await modelProvider(h);
  // Spoken answers on, as Dify's app of the recorded text-to-audio call has them.
  const chat = chatFlow('Bot', { features: { text_to_speech: true } as never });
  chat.nodes[0]!.config = { variables: [{ name: 'query', label: 'Query', type: 'paragraph', required: false, options: [], allowed_extensions: [] }] };
  chatKey = (await createKey(h, owner(), await publishedApp(h, owner(), 'My App', chat))).secret;
  flowKey = (await createKey(h, owner(), await publishedApp(h, owner(), 'Flow', sayFlow()))).secret;
});
afterAll(async () => {
  await fake?.close();
});

describe('recorded Dify shapes', () => {
  it('chat-messages, blocking', async () => {
    const fx = fixture('chat-messages-blocking.json');
    const r = await v1(h, chatKey, 'POST', '/chat-messages', { body: fx.request });
    expect(r.status, r.raw.body).toBe(200);
    expect(differences(fx.response, r.body, '')).toEqual([]);
  });

  it('chat-messages, streaming: one event of each recorded kind', async () => {
    const fx = fixture('chat-messages-streaming.json');
    const r = await v1(h, chatKey, 'POST', '/chat-messages', { body: fx.request });
    const ours = difyEvents(r.raw.body);
    for (const rec of fx.events) {
      const mine = ours.find((e) => e.event === rec.event);
      expect(mine, rec.event).toBeDefined();
      const errata = Object.fromEntries(Object.entries(fx._errata as Errata).filter(([p]) => p.startsWith(`${rec.event}.`)).map(([p, v]) => [p.slice(rec.event.length + 1), v]));
      expect(differences(rec, mine, '', errata), rec.event).toEqual([]);
    }
  });

  it('workflows/run, blocking and streaming', async () => {
    const blocking = fixture('workflows-run-blocking.json');
    const r = await v1(h, flowKey, 'POST', '/workflows/run', { body: { ...blocking.request, inputs: { word: 'hi' } } });
    expect(r.status, r.raw.body).toBe(200);
    // Dify's example has `error: null` for a run that succeeded: so has Weft's.
    expect(differences(blocking.response, r.body, '')).toEqual([]);

    const streaming = fixture('workflows-run-streaming.json');
    const s = await v1(h, flowKey, 'POST', '/workflows/run', { body: { ...streaming.request, inputs: { word: 'hi' } } });
    const ours = difyEvents(s.raw.body);
    for (const rec of streaming.events) {
      const mine = ours.find((e) => e.event === rec.event);
      const errata = Object.fromEntries(Object.entries(streaming._errata as Errata).filter(([p]) => p.startsWith(`${rec.event}.`)).map(([p, v]) => [p.slice(rec.event.length + 1), v]));
      expect(differences(rec, mine, '', errata), rec.event).toEqual([]);
    }
  });

  it('conversations, rename, messages, result answers', async () => {
    const first = (await v1(h, chatKey, 'POST', '/chat-messages', { body: { query: 'hello', user: 'abc-123', inputs: { query: 'x' } } })).body as any;
    const list = fixture('conversations.json');
    const l = await v1(h, chatKey, 'GET', '/conversations', { query: { ...list.request.query, last_id: undefined } });
    expect(differences(list.response, l.body, '')).toEqual([]);

    const rename = fixture('conversation-rename.json');
    const n = await v1(h, chatKey, 'POST', `/conversations/${first.conversation_id}/name`, { body: rename.request });
    expect(differences(rename.response, n.body, '')).toEqual([]);

    const msgs = fixture('messages.json');
    const m = await v1(h, chatKey, 'GET', '/messages', { query: { ...msgs.request.query, conversation_id: first.conversation_id } });
    // The recorded message has knowledge passages; this app has no knowledge: its list is empty, its type the same.
    expect(differences(msgs.response, m.body, '')).toEqual([]);

    const result = fixture('result-success.json').response;
    expect(differences(result, (await v1(h, chatKey, 'POST', `/messages/${first.message_id}/feedbacks`, { body: { rating: 'like', user: 'abc-123' } })).body, '')).toEqual([]);
    expect(differences(result, (await v1(h, chatKey, 'POST', `/chat-messages/${first.task_id}/stop`, { body: { user: 'abc-123' } })).body, '')).toEqual([]);
    expect(differences(result, (await v1(h, chatKey, 'DELETE', `/conversations/${first.conversation_id}`, { body: { user: 'abc-123' } })).body, '')).toEqual([]);
  });

  it('files/upload (201), parameters, info and the error body', async () => {
    const up = fixture('files-upload.json');
    const boundary = '----dify';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="user"\r\n\r\nabc-123\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="example.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n--${boundary}--\r\n`;
    const u = await v1(h, chatKey, 'POST', '/files/upload', { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(u.status, u.raw.body).toBe(up.status);
    expect(differences(up.response, u.body, '')).toEqual([]);

    expect(differences(fixture('parameters.json').response, (await v1(h, chatKey, 'GET', '/parameters')).body, '')).toEqual([]);
    expect(differences(fixture('info.json').response, (await v1(h, chatKey, 'GET', '/info')).body, '')).toEqual([]);

    const tts = fixture('text-to-audio.json');
    const message = (await v1(h, chatKey, 'POST', '/chat-messages', { body: { query: 'hello', user: tts.request.user, inputs: {}, response_mode: 'blocking' } })).body as any;
    const a = await v1(h, chatKey, 'POST', '/text-to-audio', { body: { ...tts.request, message_id: message.message_id } });
    expect(a.status, a.raw.body.slice(0, 200)).toBe(200);
    expect(a.raw.headers['content-type']).toBe(tts.headers['Content-Type']);
    expect(a.raw.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');

    const err = fixture('error.json');
    const e = await v1(h, chatKey, 'POST', '/chat-messages', { body: { user: 'abc-123' } });
    expect(e.status).toBe(err.status);
    expect(differences(err.response, e.body, '')).toEqual([]);
    expect(Object.keys(e.body).sort()).toEqual(Object.keys(err.response).sort());
  });
});
