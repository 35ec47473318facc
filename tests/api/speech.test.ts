import fs from 'node:fs';
import { eq, sum } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEECH_LIMITS } from '../../schemas/speech';
import type { FlowDocument } from '../../schemas/flow';
import { apiRateCounters } from '../../src/server/db/schema';
import { rateLimiterOf } from '../../src/server/security/rate-limit';
import { synthesize } from '../../src/server/speech';
import { fakeOpenAi, type FakeServer } from './fake-providers';
import { fakeSpeech, fixtureWav, type FakeSpeech } from './fake-speech';
import { DEFAULT_TENANT_ID, LOOPBACK_FAKES, useStudio } from './harness';
import { distribute, expectStatus, publish, web } from './portal-kit';
import { createKey, expectDifyError, v1 } from './public-kit';
import { configureProvider, createApp, flow, model, parseSse, prompt } from './runs-kit';
import { expectCode, expectOk, MISSING, setUpWorkspaces, type Fixture } from './workspace-fixture';

// Speech (issue 31) against the real server: the offline voice (eSpeak NG on its worker thread) when
// no tts model is set, then a fake OpenAI audio provider over real HTTP as the tenant's default tts
// and speech2text models; the console debug and portal text-to-audio / audio-to-text calls; bad input.

const h = useStudio(LOOPBACK_FAKES);
let f: Fixture;
let llm: FakeServer;
let audio: FakeSpeech;
let voiceApp = '';
let quietApp = '';
let answerId = '';
/** App keys of the voice app and the quiet one (public /v1 calls). */
let voiceKey = '';
let quietKey = '';
/** An answer of the voice app to the end user 'abc-123' through /v1. */
let apiMessageId = '';

const owner = () => ({ token: f.u.owner.token, workspaceId: f.wsA });
const console_ = (appId: string, path: string) => `/api/v1/console/apps/${appId}/${path}`;

const chatDoc = (features: Record<string, unknown>): FlowDocument => ({
  ...flow(
    [
      ['s', 'start'],
      ['llm', 'llm', { model: model('deepseek', 'deepseek-chat'), prompts: [prompt('user', '{{#sys.query#}}')] }],
      ['ans', 'answer', { answer: '**Answer**: {{#llm.text#}}. Bye!' }],
    ],
    [
      ['s', 'llm'],
      ['llm', 'ans'],
    ],
    'chatflow',
  ),
  features: features as never,
});

/** A multipart body with one file (and fields), as a browser's FormData sends it. */
async function multipart(file: { bytes: Buffer; type: string; name: string } | null, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const r = new Response(form);
  return { body: Buffer.from(await r.arrayBuffer()), headers: { 'content-type': r.headers.get('content-type')! } };
}

const wavOf = (b: Buffer) => ({ riff: b.subarray(0, 4).toString('latin1'), rate: b.readUInt32LE(24), bytes: b.length });

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'speech');
  llm = await fakeOpenAi();
  await configureProvider(h, 'deepseek', llm.baseUrl);
  voiceApp = await createApp(h, f.u.member.token, f.wsA, 'Voice bot', chatDoc({ speech_to_text: true, text_to_speech: true }));
  await distribute(h, owner(), voiceApp, 'portal', (await publish(h, owner(), voiceApp, 'v1')).id);
  quietApp = await createApp(h, f.u.member.token, f.wsA, 'Quiet bot', chatDoc({}));
  await distribute(h, owner(), quietApp, 'portal', (await publish(h, owner(), quietApp, 'q1')).id);
  const events = parseSse((await web(h, f.u.member.token, 'POST', `/portal/${voiceApp}/chat-messages`, { body: { query: 'Hi', inputs: {} } })).raw.body) as { type: string; messageId?: string }[];
  answerId = events.find((e) => e.type === 'message_end')!.messageId!;
  voiceKey = (await createKey(h, owner(), voiceApp)).secret;
  quietKey = (await createKey(h, owner(), quietApp)).secret;
});

/** A /v1 multipart call with the app key. */
const v1Upload = (key: string, path: string, up: { body: Buffer; headers: Record<string, string> }) =>
  h.call('POST', `/v1${path}`, { headers: { ...up.headers, authorization: `Bearer ${key}` }, body: up.body });
afterAll(async () => {
  await llm?.close();
  await audio?.close();
});

describe('without speech models', () => {
  it('text-to-audio speaks with the offline voice (eSpeak NG, WAV 22.05 kHz), zh and en; the status says so', async () => {
    for (const text of ['你好，今天天气很好。', 'Hello there.']) {
      const r = await h.call('POST', console_(voiceApp, 'text-to-audio'), { ...owner(), body: { text } });
      expectStatus(r, 200);
      expect(r.raw.headers['content-type']).toBe('audio/wav');
      const w = wavOf(r.raw.rawPayload);
      expect(w).toMatchObject({ riff: 'RIFF', rate: 22050 });
      expect(w.bytes).toBeGreaterThan(20_000);
    }
    const status = expectOk(await web(h, f.u.member.token, 'GET', `/portal/${voiceApp}/speech`));
    expect(status).toEqual({ speech_to_text: false, text_to_speech: { provider: 'weft_offline', model: 'espeak-ng', offline: true } });
  });

  it('a faster speed is shorter audio; the service is callable as s31-video calls it', async () => {
    const slow = await synthesize(h.studio.ctx, DEFAULT_TENANT_ID, { text: 'One two three four five six.', voice: { speed: 0.5 } });
    const fast = await synthesize(h.studio.ctx, DEFAULT_TENANT_ID, { text: 'One two three four five six.', voice: { speed: 2 }, language: 'en' });
    expect(slow.mime).toBe('audio/wav');
    expect(fast.audio.length).toBeLessThan(slow.audio.length * 0.6);
  });

  it('audio-to-text without a speech2text model is SPEECH-1000, in the console and the portal', async () => {
    const up = await multipart({ bytes: fixtureWav('ask-en'), type: 'audio/wav', name: 'ask.wav' });
    expectCode(await h.call('POST', console_(voiceApp, 'audio-to-text'), { ...owner(), ...up }), 400, 'SPEECH-1000');
    expectCode(await web(h, f.u.member.token, 'POST', `/portal/${voiceApp}/audio-to-text`, up as never), 400, 'SPEECH-1000');
  });

  it('/v1/text-to-audio speaks with the offline voice; /v1/parameters says voice input is off (no model), audio-to-text is SPEECH-1000', async () => {
    const r = await v1(h, voiceKey, 'POST', '/text-to-audio', { body: { text: 'Hello there.', user: 'abc-123' } });
    expectStatus(r, 200);
    expect(r.raw.headers['content-type']).toBe('audio/wav');
    expect(wavOf(r.raw.rawPayload)).toMatchObject({ riff: 'RIFF', rate: 22050 });
    // Dify's shape: no character, so no voice or language of the app's own (the default voice speaks); the portal reads answers aloud when spoken answers are on.
    expect((await v1(h, voiceKey, 'GET', '/parameters')).body).toMatchObject({ text_to_speech: { enabled: true, voice: '', language: '', autoPlay: 'enabled' }, speech_to_text: { enabled: false } });
    expect((await v1(h, quietKey, 'GET', '/parameters')).body).toMatchObject({ text_to_speech: { enabled: false, voice: '', language: '', autoPlay: 'disabled' }, speech_to_text: { enabled: false } });
    const up = await multipart({ bytes: fixtureWav('ask-en'), type: 'audio/wav', name: 'ask.wav' }, { user: 'abc-123' });
    expectDifyError(await v1Upload(voiceKey, '/audio-to-text', up), 400, 'SPEECH-1000');
  });
});

/** A WAV's fmt and data chunks (and the size its data chunk declares). */
function wavChunks(b: Buffer): { fmt: Buffer; data: Buffer; dataSize: number } {
  let fmt: Buffer = Buffer.alloc(0);
  for (let at = 12; at + 8 <= b.length; ) {
    const [id, size] = [b.subarray(at, at + 4).toString('latin1'), b.readUInt32LE(at + 4)];
    if (id === 'fmt ') fmt = b.subarray(at + 8, at + 8 + size);
    if (id === 'data') return { fmt, data: b.subarray(at + 8, Math.min(b.length, at + 8 + size)), dataSize: size };
    at += 8 + size + (size % 2);
  }
  throw new Error('no data chunk');
}

describe('/v1/text-to-audio, streaming', () => {
  it("with streaming: true speaks sentence by sentence into one WAV stream: each sentence's own speech, in order", async () => {
    const said = ['Good morning.', 'The weather is fine!', 'Shall we go out?'];
    const r = await v1(h, voiceKey, 'POST', '/text-to-audio', { body: { text: said.join(' '), user: 'abc-123', streaming: true } });
    expectStatus(r, 200);
    expect(r.raw.headers['content-type']).toBe('audio/wav');
    const streamed = wavChunks(r.raw.rawPayload);
    // A WAV whose length is not known when it starts: the sizes are the streaming maximum.
    expect(r.raw.rawPayload.readUInt32LE(4)).toBe(0xffffffff);
    expect(streamed.dataSize).toBe(0xffffffff);
    const each = await Promise.all(said.map((text) => synthesize(h.studio.ctx, DEFAULT_TENANT_ID, { text })));
    expect(streamed.fmt.equals(wavChunks(each[0]!.audio).fmt)).toBe(true);
    expect(streamed.data.equals(Buffer.concat(each.map((e) => wavChunks(e.audio).data)))).toBe(true);
    // Limits are checked on the whole text before anything is sent.
    expectDifyError(await v1(h, voiceKey, 'POST', '/text-to-audio', { body: { text: 'x. '.repeat(2000), user: 'abc-123', streaming: true } }), 400, 'SPEECH-1003');
  });
});

describe('with a tts and a speech2text model (fake OpenAI audio provider)', () => {
  beforeAll(async () => {
    audio = await fakeSpeech();
    await configureProvider(h, 'openai', audio.baseUrl);
    for (const [model_type, m] of [
      ['tts', 'tts-1'],
      ['speech2text', 'whisper-1'],
    ]) {
      const test = expectOk(await h.call('POST', '/api/v1/admin/models/model-providers/openai/credentials/validate', { token: h.adminToken, body: { model_type, model: m } }));
      expect(test, model_type).toMatchObject({ ok: true });
      expectOk(await h.call('PUT', '/api/v1/admin/models/tenant-default', { token: h.adminToken, body: { model_type, provider: 'openai', model: m } }));
    }
  });

  it('the credentials test spoke one word and uploaded a tenth of a second of WAV', () => {
    expect(audio.speech[0]).toMatchObject({ model: 'tts-1', input: 'ping', voice: 'alloy' });
    expect(audio.transcriptions[0]).toMatchObject({ model: 'whisper-1', fileName: 'audio.wav', fileType: 'audio/wav', fileBytes: 3244, riff: true });
  });

  it("the credentials dialog's test (no model_type) tests a tts or speech2text model by its own call; a failing one answers its model error", async () => {
    const validate = (body: Record<string, unknown>) => h.call('POST', '/api/v1/admin/models/model-providers/openai/credentials/validate', { token: h.adminToken, body });
    const [speech, heard] = [audio.speech.length, audio.transcriptions.length];
    expect(expectOk(await validate({ model: 'gpt-4o-mini-tts' }))).toMatchObject({ ok: true });
    expect(audio.speech.at(-1)).toMatchObject({ model: 'gpt-4o-mini-tts', input: 'ping' });
    expect(expectOk(await validate({ model: 'gpt-4o-mini-transcribe' }))).toMatchObject({ ok: true });
    expect(audio.transcriptions.at(-1)).toMatchObject({ model: 'gpt-4o-mini-transcribe', fileType: 'audio/wav', riff: true });
    expect([audio.speech.length, audio.transcriptions.length]).toEqual([speech + 1, heard + 1]);
    // A custom speech model the catalogue does not list: the dialog names its type.
    const failed = expectOk(await validate({ model: 'my-tts', model_type: 'tts' })) as { ok: boolean; error_code?: string; message?: string };
    expect(failed).toMatchObject({ ok: false, error_code: 'model_not_found' });
    expect(failed.message).toContain('my-tts');
    const refused = expectOk(await validate({ model: 'whisper-1', credentials: { base_url: audio.baseUrl, api_key: 'sk-wrong' } }));
    expect(refused).toMatchObject({ ok: false, error_code: 'unauthorized' });
  });

  it('console text-to-audio goes to /audio/speech with the voice; a message_id reads its answer without markup', async () => {
    const r = await h.call('POST', console_(voiceApp, 'text-to-audio'), { ...owner(), body: { text: 'Hello!', voice: 'nova' } });
    expectStatus(r, 200);
    expect(r.raw.headers['content-type']).toBe('audio/wav');
    expect(r.raw.rawPayload.equals(fixtureWav('answer-en'))).toBe(true);
    expect(audio.speech.at(-1)).toMatchObject({ model: 'tts-1', input: 'Hello!', voice: 'nova', response_format: 'mp3' });
    expectStatus(await web(h, f.u.member.token, 'POST', `/portal/${voiceApp}/text-to-audio`, { body: { message_id: answerId } }), 200);
    expect(audio.speech.at(-1)!.input).toBe('Answer: Hello, world. Bye!');
  });

  it("a digital human's answers are spoken in its character's voice (model, voice, speed) unless the call names one", async () => {
    const c = expectOk(
      await h.call('POST', '/api/v1/console/characters', { token: f.u.member.token, workspaceId: f.wsA, body: { name: 'Ana', voice: { provider: 'openai', model: 'gpt-4o-mini-tts', voice: 'shimmer', speed: 1.25 }, persona: '', greeting: '' } }),
    ) as { id: string };
    expectOk(await h.call('PUT', `/api/v1/console/apps/${voiceApp}/digital-human`, { token: f.u.member.token, workspaceId: f.wsA, body: { kind: 'conversation', character_id: c.id } }));
    try {
      expectStatus(await web(h, f.u.member.token, 'POST', `/portal/${voiceApp}/text-to-audio`, { body: { text: 'Hi there.' } }), 200);
      expect(audio.speech.at(-1)).toMatchObject({ model: 'gpt-4o-mini-tts', input: 'Hi there.', voice: 'shimmer', speed: 1.25 });
      expectStatus(await web(h, f.u.member.token, 'POST', `/portal/${voiceApp}/text-to-audio`, { body: { text: 'Again.', voice: 'nova' } }), 200);
      expect(audio.speech.at(-1)).toMatchObject({ model: 'gpt-4o-mini-tts', input: 'Again.', voice: 'nova' });
    } finally {
      expectOk(await h.call('DELETE', `/api/v1/console/apps/${voiceApp}/digital-human`, { token: f.u.member.token, workspaceId: f.wsA }));
    }
  });

  it('audio-to-text uploads the recording as multipart and answers the text (console and portal)', async () => {
    audio.transcript = '法国的首都是哪里？';
    const up = await multipart({ bytes: fixtureWav('ask-zh'), type: 'audio/webm;codecs=opus', name: 'rec.webm' }, { language: 'zh' });
    expect(expectOk(await web(h, f.u.member.token, 'POST', `/portal/${voiceApp}/audio-to-text`, up as never))).toEqual({ text: '法国的首都是哪里？' });
    expect(audio.transcriptions.at(-1)).toMatchObject({ model: 'whisper-1', language: 'zh', fileName: 'audio.webm', fileType: 'audio/webm', fileBytes: fixtureWav('ask-zh').length });
    const en = await multipart({ bytes: fixtureWav('ask-en'), type: 'audio/wav', name: 'a.wav' });
    audio.transcript = 'What is the capital of France?';
    expect(expectOk(await h.call('POST', console_(voiceApp, 'audio-to-text'), { ...owner(), ...en }))).toEqual({ text: 'What is the capital of France?' });
    expect(expectOk(await web(h, f.u.member.token, 'GET', `/portal/${voiceApp}/speech`))).toMatchObject({ speech_to_text: true, text_to_speech: { provider: 'openai', model: 'tts-1', offline: false } });
  });

  it("/v1 speaks the end user's answer (message_id before text) in the app's voice, its character's when it has one, and writes recordings down", async () => {
    const chat = await v1(h, voiceKey, 'POST', '/chat-messages', { body: { query: 'Hi', inputs: {}, user: 'abc-123', response_mode: 'blocking' } });
    apiMessageId = (chat.body as unknown as { message_id: string }).message_id;
    const r = await v1(h, voiceKey, 'POST', '/text-to-audio', { body: { message_id: apiMessageId, text: 'not this', user: 'abc-123', streaming: false } });
    expectStatus(r, 200);
    expect(r.raw.headers['content-type']).toBe('audio/wav');
    expect(r.raw.rawPayload.equals(fixtureWav('answer-en'))).toBe(true);
    expect(audio.speech.at(-1)).toMatchObject({ model: 'tts-1', input: 'Answer: Hello, world. Bye!', voice: 'alloy' });
    const c = expectOk(
      await h.call('POST', '/api/v1/console/characters', { token: f.u.member.token, workspaceId: f.wsA, body: { name: 'Bo', voice: { provider: 'openai', model: 'gpt-4o-mini-tts', voice: 'coral', speed: 0.75 }, persona: '', greeting: '' } }),
    ) as { id: string };
    expectOk(await h.call('PUT', `/api/v1/console/apps/${voiceApp}/digital-human`, { token: f.u.member.token, workspaceId: f.wsA, body: { kind: 'conversation', character_id: c.id } }));
    try {
      expectStatus(await v1(h, voiceKey, 'POST', '/text-to-audio', { body: { text: 'Hi there.', user: 'abc-123' } }), 200);
      expect(audio.speech.at(-1)).toMatchObject({ model: 'gpt-4o-mini-tts', input: 'Hi there.', voice: 'coral', speed: 0.75 });
    } finally {
      expectOk(await h.call('DELETE', `/api/v1/console/apps/${voiceApp}/digital-human`, { token: f.u.member.token, workspaceId: f.wsA }));
    }
    audio.transcript = 'What is the capital of France?';
    const up = await multipart({ bytes: fixtureWav('ask-en'), type: 'audio/mpeg', name: 'ask.mp3' }, { user: 'abc-123' });
    const t = await v1Upload(voiceKey, '/audio-to-text', up);
    expect(t.status, t.raw.body).toBe(200);
    expect(t.body).toEqual({ text: 'What is the capital of France?' });
    // Dify's recorded answer (tests/fixtures/dify-api): the same keys, the same types.
    const recorded = JSON.parse(fs.readFileSync(new URL('../fixtures/dify-api/audio-to-text.json', import.meta.url), 'utf8')).response;
    expect(Object.keys(t.body).sort()).toEqual(Object.keys(recorded).sort());
    expect(audio.transcriptions.at(-1)).toMatchObject({ model: 'whisper-1', fileBytes: fixtureWav('ask-en').length });
    expect((await v1(h, voiceKey, 'GET', '/parameters')).body).toMatchObject({ text_to_speech: { enabled: true }, speech_to_text: { enabled: true } });
  });

  it('a /v1 audio call is counted against its key like every /v1 call', async () => {
    const limiter = rateLimiterOf(h.studio.ctx, () => undefined);
    const key = await createKey(h, owner(), voiceApp, { name: 'counted' });
    expectStatus(await v1(h, key.secret, 'POST', '/text-to-audio', { body: { text: 'One.', user: 'abc-123' } }), 200);
    const up = await multipart({ bytes: fixtureWav('ask-en'), type: 'audio/wav', name: 'a.wav' }, { user: 'abc-123' });
    expect((await v1Upload(key.secret, '/audio-to-text', up)).status).toBe(200);
    await limiter.flush();
    const [row] = await h.studio.ctx.db.select({ n: sum(apiRateCounters.count) }).from(apiRateCounters).where(eq(apiRateCounters.keyId, key.id));
    expect(Number(row!.n)).toBe(2);
  });

  it('a provider failure is SPEECH-1004 with the model error', async () => {
    audio.models.delete('tts-1');
    try {
      const r = await h.call('POST', console_(voiceApp, 'text-to-audio'), { ...owner(), body: { text: 'Hello' } });
      expectCode(r, 400, 'SPEECH-1004');
      expect(r.body.data).toEqual({ model_error: 'model_not_found' });
    } finally {
      audio.models.add('tts-1');
    }
  });
});

describe('bad input changes nothing and answers a catalogue code', () => {
  it('empty text, text over the limit, a wrong or missing file, an oversized upload', async () => {
    const before = audio.speech.length + audio.transcriptions.length;
    expectCode(await h.call('POST', console_(voiceApp, 'text-to-audio'), { ...owner(), body: { text: '   ' } }), 400, 'SPEECH-1005');
    expectCode(await h.call('POST', console_(voiceApp, 'text-to-audio'), { ...owner(), body: {} }), 400, 'SPEECH-1005');
    const long = await h.call('POST', console_(voiceApp, 'text-to-audio'), { ...owner(), body: { text: 'a'.repeat(SPEECH_LIMITS.textMax + 1) } });
    expectCode(long, 400, 'SPEECH-1003');
    expect(long.body.data).toEqual({ limit: SPEECH_LIMITS.textMax });
    const text = await multipart({ bytes: Buffer.from('hello'), type: 'text/plain', name: 'a.txt' });
    expectCode(await h.call('POST', console_(voiceApp, 'audio-to-text'), { ...owner(), ...text }), 400, 'SPEECH-1001');
    const none = await multipart(null, { language: 'en' });
    expectCode(await h.call('POST', console_(voiceApp, 'audio-to-text'), { ...owner(), ...none }), 400, 'VALIDATION-1000');
    const empty = await multipart({ bytes: Buffer.alloc(0), type: 'audio/wav', name: 'a.wav' });
    expectCode(await h.call('POST', console_(voiceApp, 'audio-to-text'), { ...owner(), ...empty }), 400, 'SPEECH-1002');
    const big = await multipart({ bytes: Buffer.alloc(SPEECH_LIMITS.audioMaxBytes + 1), type: 'audio/wav', name: 'a.wav' });
    const r = await h.call('POST', console_(voiceApp, 'audio-to-text'), { ...owner(), ...big });
    expectCode(r, 400, 'SPEECH-1002');
    expect(r.body.data).toEqual({ limit: SPEECH_LIMITS.audioMaxBytes });
    expect(audio.speech.length + audio.transcriptions.length).toBe(before);
  });

  it("another tenant's user, a user outside the space, a missing app, another app's message: VALIDATION-1000; voice off: 400", async () => {
    const before = audio.speech.length + audio.transcriptions.length;
    const up = await multipart({ bytes: fixtureWav('ask-en'), type: 'audio/wav', name: 'a.wav' });
    expectCode(await web(h, f.u.foreign.token, 'POST', `/portal/${voiceApp}/text-to-audio`, { body: { text: 'hi' } }), 400, 'VALIDATION-1000');
    expectCode(await web(h, f.u.foreign.token, 'POST', `/portal/${voiceApp}/audio-to-text`, up as never), 400, 'VALIDATION-1000');
    expectCode(await web(h, f.u.foreign.token, 'GET', `/portal/${voiceApp}/speech`), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', console_(voiceApp, 'text-to-audio'), { token: f.u.outsider.token, workspaceId: f.wsA, body: { text: 'hi' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', console_(voiceApp, 'text-to-audio'), { token: f.u.owner.token, workspaceId: f.wsB, body: { text: 'hi' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', console_(MISSING, 'audio-to-text'), { ...owner(), ...up }), 400, 'VALIDATION-1000');
    expectCode(await web(h, f.u.member.token, 'POST', `/portal/${quietApp}/text-to-audio`, { body: { text: 'hi' } }), 400, 'VALIDATION-1000');
    expectCode(await web(h, f.u.member.token, 'POST', `/portal/${quietApp}/audio-to-text`, up as never), 400, 'VALIDATION-1000');
    // The voice app's answer, asked through the quiet app, or by another user: not theirs.
    expectCode(await web(h, f.u.outsider.token, 'POST', `/portal/${voiceApp}/text-to-audio`, { body: { message_id: answerId } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', console_(quietApp, 'text-to-audio'), { ...owner(), body: { message_id: answerId } }), 400, 'VALIDATION-1000');
    expect(audio.speech.length + audio.transcriptions.length).toBe(before);
  });
});

describe('/v1 audio: bad input changes nothing and answers Dify\'s error body with a catalogue code', () => {
  it('a bad or missing key, no user, a wrong type, too large, too long, voice off for the app', async () => {
    const before = audio.speech.length + audio.transcriptions.length;
    const wav = await multipart({ bytes: fixtureWav('ask-en'), type: 'audio/wav', name: 'a.wav' }, { user: 'abc-123' });
    expectDifyError(await v1(h, 'wk-not-a-key', 'POST', '/text-to-audio', { body: { text: 'hi', user: 'abc-123' } }), 401, 'AUTH-1007');
    expectDifyError(await v1(h, null, 'POST', '/text-to-audio', { body: { text: 'hi', user: 'abc-123' } }), 401, 'AUTH-1007');
    expectDifyError(await v1Upload('wk-not-a-key', '/audio-to-text', wav), 401, 'AUTH-1007');
    expectDifyError(await v1(h, voiceKey, 'POST', '/text-to-audio', { body: { text: 'hi' } }), 400, 'VALIDATION-1000');
    const noUser = await multipart({ bytes: fixtureWav('ask-en'), type: 'audio/wav', name: 'a.wav' });
    expectDifyError(await v1Upload(voiceKey, '/audio-to-text', noUser), 400, 'VALIDATION-1000');
    const text = await multipart({ bytes: Buffer.from('hello'), type: 'text/plain', name: 'a.txt' }, { user: 'abc-123' });
    expectDifyError(await v1Upload(voiceKey, '/audio-to-text', text), 400, 'SPEECH-1001');
    const big = await multipart({ bytes: Buffer.alloc(SPEECH_LIMITS.audioMaxBytes + 1), type: 'audio/wav', name: 'a.wav' }, { user: 'abc-123' });
    expectDifyError(await v1Upload(voiceKey, '/audio-to-text', big), 400, 'SPEECH-1002');
    expectDifyError(await v1(h, voiceKey, 'POST', '/text-to-audio', { body: { text: 'a'.repeat(SPEECH_LIMITS.textMax + 1), user: 'abc-123' } }), 400, 'SPEECH-1003');
    expectDifyError(await v1(h, voiceKey, 'POST', '/text-to-audio', { body: { text: ' ', user: 'abc-123' } }), 400, 'SPEECH-1005');
    expectDifyError(await v1(h, quietKey, 'POST', '/text-to-audio', { body: { text: 'hi', user: 'abc-123' } }), 400, 'SPEECH-1060');
    expectDifyError(await v1Upload(quietKey, '/audio-to-text', wav), 400, 'SPEECH-1060');
    expect(audio.speech.length + audio.transcriptions.length).toBe(before);
  });

  it("another app's, another user's or a portal message_id answers 404 as a missing one", async () => {
    const before = audio.speech.length;
    const quiet = await v1(h, quietKey, 'POST', '/chat-messages', { body: { query: 'Hi', inputs: {}, user: 'abc-123', response_mode: 'blocking' } });
    const quietMessage = (quiet.body as unknown as { message_id: string }).message_id;
    for (const [message_id, user] of [
      [quietMessage, 'abc-123'],
      [apiMessageId, 'someone-else'],
      [answerId, 'abc-123'],
      [MISSING, 'abc-123'],
      ['not-a-uuid', 'abc-123'],
    ]) {
      expectDifyError(await v1(h, voiceKey, 'POST', '/text-to-audio', { body: { message_id, user } }), 404, 'VALIDATION-1000');
    }
    expect(audio.speech.length).toBe(before);
  });
});

describe('OpenAPI', () => {
  it('documents the speech calls of the console and the portal', async () => {
    const doc = (await h.call('GET', '/api/v1/openapi.json')).raw.json();
    for (const [method, path] of [
      ['get', '/api/v1/web/portal/{portal_id}/speech'],
      ['post', '/api/v1/web/portal/{portal_id}/text-to-audio'],
      ['post', '/api/v1/web/portal/{portal_id}/audio-to-text'],
      ['get', '/api/v1/console/apps/{app_id}/speech'],
      ['post', '/api/v1/console/apps/{app_id}/text-to-audio'],
      ['post', '/api/v1/console/apps/{app_id}/audio-to-text'],
    ]) {
      const op = doc.paths[path]?.[method];
      expect(op?.summary, `${method} ${path}`).toBeTruthy();
    }
    // The public calls: app keys only (the AppKey scheme), Dify's paths.
    for (const path of ['/v1/text-to-audio', '/v1/audio-to-text']) {
      expect(doc.paths[path]?.post?.security, path).toEqual([{ AppKey: [] }]);
      expect(doc.paths[path].post.summary, path).toBeTruthy();
    }
    expect(Object.keys(doc.paths['/v1/text-to-audio'].post.requestBody.content)).toContain('application/json');
    expect(Object.keys(doc.paths['/api/v1/web/portal/{portal_id}/text-to-audio'].post.requestBody.content)).toContain('application/json');
    // The character dialog's voice picker and sample, and the portal user's own speed (issue 31).
    expect(doc.paths['/api/v1/console/characters/voices']?.get?.summary).toBeTruthy();
    expect(doc.paths['/api/v1/console/characters/voice-sample']?.post?.summary).toBeTruthy();
    expect(doc.paths['/api/v1/web/portal/{portal_id}/text-to-audio'].post.requestBody.content['application/json'].schema.properties.speed).toBeTruthy();
  });
});
