import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { broadcasts, characters, files } from '../../src/server/db/schema';
import { mediaDuration, runFfmpeg } from '../../src/server/digital-human/ffmpeg';
import { queueRender } from '../../src/server/digital-human/render-jobs';
import { jobsOf } from '../../src/server/jobs/boss';
import { DEFAULT_TENANT_ID, useStudio, type CallOptions } from './harness';
import { upload, useTempDataDir } from './knowledge-kit';
import { distribute, modelProvider, publish, web } from './portal-kit';
import { createKey, v1 } from './public-kit';
import { createApp, flow, model, parseSse, prompt } from './runs-kit';
import { expectCode, expectOk, MISSING, setUpWorkspaces, type Fixture, type Who } from './workspace-fixture';

// Digital humans (issue 31): characters of a space, apps as digital humans, broadcast videos rendered
// by the real ffmpeg with the offline voice (no tts model configured).

const h = useStudio();
const tmp = useTempDataDir(h);
let f: Fixture;
let portrait: Buffer;
let clip: Buffer;
const CHARS = '/api/v1/console/characters';
const APPS = '/api/v1/console/apps';

function call(method: string, url: string, who: Who, opts: Omit<CallOptions, 'token'> & { ws?: string | null } = {}) {
  const { ws, ...rest } = opts;
  return h.call(method, url, { ...rest, token: f.u[who].token, workspaceId: ws === null ? undefined : (ws ?? f.wsA) });
}

async function newApp(type: string, name: string, ws = f.wsA): Promise<string> {
  return expectOk(await call('POST', APPS, 'member', { ws, body: { name, description: name, type, icon: { icon: 'bot' } } })).id;
}

async function portraitId(who: Who = 'member'): Promise<string> {
  return expectOk(await upload(h, f.u[who].token, f.wsA, 'face.png', portrait, 'icon')).id;
}

async function waitDone(appId: string, id: string, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const b = expectOk(await call('GET', `${APPS}/${appId}/broadcasts/${id}`, 'member'));
    if (b.state === 'done' || b.state === 'failed') return b;
    if (Date.now() > until) throw new Error(`broadcast still ${b.state} (${b.progress}%)`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'dh');
  // A small portrait: a skin-coloured square with darker eyes and lips, made by ffmpeg itself.
  portrait = await runFfmpeg(
    ['-f', 'lavfi', '-i', 'color=c=0xe8c4a0:s=120x160', '-vf', 'drawbox=x=35:y=55:w=12:h=8:c=0x303030:t=fill,drawbox=x=73:y=55:w=12:h=8:c=0x303030:t=fill,drawbox=x=45:y=102:w=30:h=5:c=0xa04040:t=fill', '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', 'pipe:1'],
    { timeoutMs: 10_000 },
  );
  // A short idle clip: 1 s of ffmpeg's moving test pattern (testsrc2: its whole picture moves), 160×160, H.264 in an MP4.
  const clipFile = path.join(tmp.dir(), 'idle.mp4');
  await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x160:rate=25:duration=1', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', clipFile], { timeoutMs: 10_000 });
  clip = fs.readFileSync(clipFile);
});

/** A PNG's size from its IHDR chunk. */
const pngSize = (b: Buffer) => ({ width: b.readUInt32BE(16), height: b.readUInt32BE(20) });

/** The video's and its audio stream's durations, read back by ffmpeg from the downloaded MP4. */
async function durations(appId: string, id: string, name: string) {
  const video = await call('GET', `${APPS}/${appId}/broadcasts/${id}/video`, 'member');
  expect(video.status).toBe(200);
  const file = path.join(tmp.dir(), `${name}.mp4`);
  fs.writeFileSync(file, video.raw.rawPayload);
  const audioOnly = path.join(tmp.dir(), `${name}.m4a`);
  await runFfmpeg(['-y', '-i', file, '-map', '0:a', '-c', 'copy', audioOnly], { timeoutMs: 10_000 });
  return { file, container: await mediaDuration(file), audio: await mediaDuration(audioOnly) };
}

describe('characters', () => {
  it('creates, lists, reads, changes and deletes a character; the portrait is served without a token', async () => {
    const pid = await portraitId();
    const c = expectOk(
      await call('POST', CHARS, 'member', { body: { name: 'Xiao Wei 小薇', portrait_file_id: pid, voice: { voice: 'zh', speed: 1.2 }, persona: 'A calm newsreader.', greeting: '你好，我是小薇。' } }),
    );
    expect(c).toMatchObject({ name: 'Xiao Wei 小薇', workspace_id: f.wsA, voice: { voice: 'zh', speed: 1.2 }, persona: 'A calm newsreader.', greeting: '你好，我是小薇。', app_count: 0, idle_clip: null });
    expect(c.portrait).toMatchObject({ file_id: pid, mime_type: 'image/png' });
    const img = await h.call('GET', c.portrait.url);
    expect(img.status).toBe(200);
    expect(img.raw.headers['content-type']).toBe('image/png');

    expect(expectOk(await call('GET', CHARS, 'admin', { query: { name: '小薇' } })).items.map((x: { id: string }) => x.id)).toEqual([c.id]);
    const changed = expectOk(await call('PUT', CHARS, 'member', { body: { id: c.id, greeting: 'Hello!', voice: { speed: 0.8 } } }));
    expect(changed).toMatchObject({ greeting: 'Hello!', persona: 'A calm newsreader.', voice: { speed: 0.8 } });
    expect(expectOk(await call('GET', `${CHARS}/${c.id}`, 'member')).greeting).toBe('Hello!');
    // Ordinary members build but do not delete (as apps).
    expectCode(await call('DELETE', `${CHARS}/${c.id}`, 'member'), 403, 'PERMISSION-1000');
    expectOk(await call('DELETE', `${CHARS}/${c.id}`, 'admin'));
    expectCode(await call('GET', `${CHARS}/${c.id}`, 'member'), 400, 'VALIDATION-1000');
  });

  it('refuses bad input with a code and stores nothing', async () => {
    const before = (await h.studio.ctx.db.select().from(characters)).length;
    expectCode(await call('POST', CHARS, 'member', { body: { name: '' } }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', CHARS, 'member', { body: { name: 'x'.repeat(51) } }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', CHARS, 'member', { body: { name: 'Fast', voice: { speed: 3 } } }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', CHARS, 'member', { body: { name: 'Long', persona: 'p'.repeat(2001) } }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', CHARS, 'member', { body: { id: MISSING, name: 'With id' } }), 400, 'VALIDATION-1002');
    // A portrait must be an image uploaded as an icon: a knowledge file is refused on the field.
    const txt = expectOk(await upload(h, f.u.member.token, f.wsA, 'a.txt', 'hello'));
    const r = await call('POST', CHARS, 'member', { body: { name: 'Wrong file', portrait_file_id: txt.id } });
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.body.data[0].path).toBe('body/portrait_file_id');
    expectCode(await call('POST', CHARS, 'member', { body: { name: 'No file', portrait_file_id: MISSING } }), 400, 'VALIDATION-1000');
    // Idle clips: mp4/webm whose bytes are a video.
    expectCode(await upload(h, f.u.member.token, f.wsA, 'idle.mp4', 'not a video', 'clip'), 400, 'VALIDATION-1000');
    expectCode(await upload(h, f.u.member.token, f.wsA, 'idle.gif', portrait, 'clip'), 400, 'VALIDATION-1000');
    expect((await h.studio.ctx.db.select().from(characters)).length).toBe(before);
  });

  it('draws an SVG portrait into a PNG of 1024 px on its long side (aspect kept): the character shows that PNG, as the video and the portal use it', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 80"><rect width="60" height="80" fill="#e8c4a0"/><circle cx="20" cy="30" r="4"/><circle cx="40" cy="30" r="4"/></svg>';
    const icon = expectOk(await upload(h, f.u.member.token, f.wsA, 'face.svg', svg, 'icon'));
    const c = expectOk(await call('POST', CHARS, 'member', { body: { name: 'Vector face', portrait_file_id: icon.id } }));
    expect(c.portrait).toMatchObject({ mime_type: 'image/png' });
    expect(c.portrait.file_id).not.toBe(icon.id);
    const png = await h.call('GET', c.portrait.url);
    expect(png.raw.headers['content-type']).toBe('image/png');
    expect(pngSize(png.raw.rawPayload)).toEqual({ width: 768, height: 1024 });
    // A change to an SVG is drawn the same way; the uploaded SVG itself is left as it was.
    const wide = expectOk(await upload(h, f.u.member.token, f.wsA, 'wide.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100"><rect width="300" height="100" fill="#08f"/></svg>', 'icon'));
    const changed = expectOk(await call('PUT', CHARS, 'member', { body: { id: c.id, portrait_file_id: wide.id } }));
    expect(changed.portrait.mime_type).toBe('image/png');
    expect(pngSize((await h.call('GET', changed.portrait.url)).raw.rawPayload)).toEqual({ width: 1024, height: 341 });
    expect((await h.call('GET', `/api/v1/common/files/${wide.id}/icon`)).raw.headers['content-type']).toBe('image/svg+xml');
  });

  it('refuses an SVG that cannot be drawn (DH-1051) or is out of bounds (DH-1052), and a portrait that is no image (DH-1050); changes nothing', async () => {
    const c = expectOk(await call('POST', CHARS, 'member', { body: { name: 'Kept face', portrait_file_id: await portraitId() } }));
    const counts = async () => [(await h.studio.ctx.db.select().from(characters)).length, (await h.studio.ctx.db.select().from(files)).length];
    const bad = {
      'DH-1051': ['<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect', '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="10"/>'],
      // 1 × 100000: drawn 1024 px long, it would be less than a pixel wide.
      'DH-1052': ['<svg xmlns="http://www.w3.org/2000/svg" width="1" height="100000"><rect width="1" height="100000"/></svg>'],
    };
    for (const [code, svgs] of Object.entries(bad)) {
      for (const svg of svgs) {
        const icon = expectOk(await upload(h, f.u.member.token, f.wsA, 'bad.svg', svg, 'icon'));
        const before = await counts();
        const r = await call('POST', CHARS, 'member', { body: { name: 'Broken face', portrait_file_id: icon.id } });
        expectCode(r, 400, code);
        expect(r.body.data[0].path).toBe('body/portrait_file_id');
        expectCode(await call('PUT', CHARS, 'member', { body: { id: c.id, portrait_file_id: icon.id } }), 400, code);
        expect(await counts()).toEqual(before);
      }
    }
    expect(expectOk(await call('GET', `${CHARS}/${c.id}`, 'member')).portrait).toEqual(c.portrait);
    // An icon upload whose type is no image (a row written directly: the upload rules let none through).
    const icon = expectOk(await upload(h, f.u.member.token, f.wsA, 'face.png', portrait, 'icon'));
    await h.studio.ctx.db.update(files).set({ mimeType: 'application/octet-stream' }).where(eq(files.id, icon.id));
    expectCode(await call('POST', CHARS, 'member', { body: { name: 'Odd face', portrait_file_id: icon.id } }), 400, 'DH-1050');
  });

  it('draws nothing from outside the SVG: an <image> by http:// is not fetched, by file:// or a path is not read', async () => {
    let hits = 0;
    const server = http.createServer((_req, res) => (hits++, res.end(portrait)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    // A local PNG the SVG names by file:// URL and by path: red all over, so a pixel of it would show.
    const red = path.join(tmp.dir(), 'red.png');
    fs.writeFileSync(red, await runFfmpeg(['-f', 'lavfi', '-i', 'color=c=red:s=16x16', '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', 'pipe:1'], { timeoutMs: 10_000 }));
    try {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64">
        <rect width="64" height="64" fill="#0000ff"/>
        <image href="http://127.0.0.1:${port}/face.png" width="64" height="64"/>
        <image xlink:href="file://${red}" width="64" height="64"/>
        <image href="${red}" width="64" height="64"/>
        <use href="http://127.0.0.1:${port}/sprite.svg#face"/>
      </svg>`;
      const icon = expectOk(await upload(h, f.u.member.token, f.wsA, 'outside.svg', svg, 'icon'));
      const c = expectOk(await call('POST', CHARS, 'member', { body: { name: 'Sealed face', portrait_file_id: icon.id } }));
      const png = (await h.call('GET', c.portrait.url)).raw.rawPayload;
      const rgb = await runFfmpeg(['-f', 'image2pipe', '-i', 'pipe:0', '-vf', 'scale=16:16,format=rgb24', '-f', 'rawvideo', 'pipe:1'], { timeoutMs: 10_000, stdin: png });
      expect(rgb.length).toBe(16 * 16 * 3);
      // Blue all over (ffmpeg's scaling may shift a channel by a step or two); a red pixel would be ~255, 0, 0.
      for (let i = 0; i < rgb.length; i += 3) expect(rgb[i]! < 16 && rgb[i + 1]! < 16 && rgb[i + 2]! > 240, `pixel ${i / 3}: ${rgb.subarray(i, i + 3).join(',')}`).toBe(true);
      expect(hits).toBe(0);
    } finally {
      server.close();
    }
  });

  it("lists the voices a character may speak with and speaks a sample in one; members of the space only", async () => {
    // No tts model in this studio: the offline voice's languages, whatever is named.
    const offline = [
      { id: 'zh', label: expect.any(String), language: 'zh' },
      { id: 'en', label: expect.any(String), language: 'en' },
    ];
    expect(expectOk(await call('GET', `${CHARS}/voices`, 'member'))).toEqual(offline);
    expect(expectOk(await call('GET', `${CHARS}/voices`, 'member', { query: { provider: 'weft_offline', model: 'espeak-ng' } }))).toEqual(offline);
    // An OpenAI-compatible tts model: the OpenAI voices; a provider without tts voices: none.
    const openai = expectOk(await call('GET', `${CHARS}/voices`, 'member', { query: { provider: 'openai', model: 'tts-1' } }));
    expect(openai.map((v: { id: string }) => v.id)).toEqual(expect.arrayContaining(['alloy', 'nova', 'shimmer']));
    expect(expectOk(await call('GET', `${CHARS}/voices`, 'member', { query: { provider: 'anthropic', model: 'claude' } }))).toEqual([]);

    const sample = await call('POST', `${CHARS}/voice-sample`, 'member', { body: { voice: { voice: 'zh', speed: 1 }, text: '你好。', language: 'zh' } });
    expect(sample.status).toBe(200);
    expect(sample.raw.headers['content-type']).toBe('audio/wav');
    expect(sample.raw.rawPayload.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(sample.raw.rawPayload.length).toBeGreaterThan(5_000);

    expectCode(await call('POST', `${CHARS}/voice-sample`, 'member', { body: { voice: { speed: 1 }, text: ' ' } }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${CHARS}/voice-sample`, 'member', { body: { voice: { speed: 1 }, text: 'x'.repeat(201) } }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${CHARS}/voice-sample`, 'member', { body: { voice: { speed: 3 }, text: 'Hi' } }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${CHARS}/voices`, 'member', { query: { provider: 'p'.repeat(65) } }), 400, 'VALIDATION-1000');
    for (const who of ['outsider', 'foreign'] as const) {
      expectCode(await call('GET', `${CHARS}/voices`, who), 400, 'VALIDATION-1000');
      expectCode(await call('POST', `${CHARS}/voice-sample`, who, { body: { voice: { speed: 1 }, text: 'Hi' } }), 400, 'VALIDATION-1000');
    }
    expectCode(await call('GET', `${CHARS}/voices`, 'member', { ws: null }), 400, 'VALIDATION-1008');
    // Both calls are in the OpenAPI document: tests/api/speech.test.ts checks it (building it is slow).
  });

  it('keeps characters to their space and tenant', async () => {
    const c = expectOk(await call('POST', CHARS, 'owner', { body: { name: 'Private' } }));
    for (const who of ['outsider', 'foreign'] as const) {
      expectCode(await call('GET', CHARS, who), 400, 'VALIDATION-1000');
      expectCode(await call('GET', `${CHARS}/${c.id}`, who), 400, 'VALIDATION-1000');
      expectCode(await call('PUT', CHARS, who, { body: { id: c.id, name: 'Taken' } }), 400, 'VALIDATION-1000');
      expectCode(await call('DELETE', `${CHARS}/${c.id}`, who), 400, 'VALIDATION-1000');
    }
    // The owner's other space does not hold it.
    expectCode(await call('GET', `${CHARS}/${c.id}`, 'owner', { ws: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', CHARS, 'owner', { ws: null }), 400, 'VALIDATION-1008');
    expect(expectOk(await call('GET', `${CHARS}/${c.id}`, 'owner')).name).toBe('Private');
  });
});

describe('digital-human apps', () => {
  it('attaches a character by kind and refuses a kind that does not fit the type (DH-1001); a used character is not deleted (DH-1004)', async () => {
    const c = expectOk(await call('POST', CHARS, 'member', { body: { name: 'Host', persona: 'Always answer in rhymes.', greeting: 'Welcome!' } }));
    const chat = await newApp('chatflow', 'Host chat');
    const wf = await newApp('workflow', 'Host news');
    expectCode(await call('PUT', `${APPS}/${wf}/digital-human`, 'member', { body: { kind: 'conversation', character_id: c.id } }), 400, 'DH-1001');
    expectCode(await call('PUT', `${APPS}/${chat}/digital-human`, 'member', { body: { kind: 'broadcast', character_id: c.id } }), 400, 'DH-1001');
    expect(expectOk(await call('GET', `${APPS}/${chat}/digital-human`, 'member'))).toBeNull();
    const set = expectOk(await call('PUT', `${APPS}/${chat}/digital-human`, 'member', { body: { kind: 'conversation', character_id: c.id } }));
    expect(set).toMatchObject({ app_id: chat, kind: 'conversation', character: { id: c.id, name: 'Host', app_count: 1 } });
    // Another space's character, another tenant's user.
    const other = expectOk(await call('POST', CHARS, 'owner', { ws: f.wsB, body: { name: 'Elsewhere' } }));
    expectCode(await call('PUT', `${APPS}/${chat}/digital-human`, 'member', { body: { kind: 'conversation', character_id: other.id } }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${APPS}/${chat}/digital-human`, 'foreign'), 400, 'VALIDATION-1000');
    const used = await call('DELETE', `${CHARS}/${c.id}`, 'owner');
    expectCode(used, 409, 'DH-1004');
    expect(used.body.data.apps).toEqual([{ id: chat, name: 'Host chat' }]);
    expectOk(await call('DELETE', `${APPS}/${chat}/digital-human`, 'member'));
    expectOk(await call('DELETE', `${CHARS}/${c.id}`, 'owner'));
  });
});

describe('broadcasts', () => {
  it('renders a short script into an MP4 whose length is the speech\'s; regenerates, downloads with Range, deletes', async () => {
    const c = expectOk(await call('POST', CHARS, 'member', { body: { name: 'Anchor', portrait_file_id: await portraitId(), voice: { speed: 1 } } }));
    const app = await newApp('workflow', 'Evening news');
    expectCode(await call('POST', `${APPS}/${app}/broadcasts`, 'member', { body: { title: 'None yet', script: 'Hello.' } }), 400, 'DH-1001');
    expectOk(await call('PUT', `${APPS}/${app}/digital-human`, 'member', { body: { kind: 'broadcast', character_id: c.id } }));
    const b = expectOk(await call('POST', `${APPS}/${app}/broadcasts`, 'member', { body: { title: 'Short', script: 'Good evening. Here is the news.' } }));
    expect(b).toMatchObject({ state: expect.stringMatching(/queued|running/), words: 6, duration: null });
    const notYet = await call('GET', `${APPS}/${app}/broadcasts/${b.id}/video`, 'member');
    if (notYet.status !== 200) expectCode(notYet, 409, 'DH-1003');
    const done = await waitDone(app, b.id);
    expect(done, JSON.stringify(done)).toMatchObject({ state: 'done', progress: 100, error: null });

    const video = await call('GET', `${APPS}/${app}/broadcasts/${b.id}/video`, 'member', { query: { download: '1' } });
    expect(video.status).toBe(200);
    expect(video.raw.headers['content-type']).toBe('video/mp4');
    expect(video.raw.headers['content-disposition']).toContain('attachment');
    const mp4 = video.raw.rawPayload;
    expect(mp4.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const file = path.join(tmp.dir(), 'check.mp4');
    fs.writeFileSync(file, mp4);
    // The speech itself: the row's duration is ffmpeg's reading of the file; the audio stream alone is checked against it.
    const audioOnly = path.join(tmp.dir(), 'audio.m4a');
    await runFfmpeg(['-y', '-i', file, '-map', '0:a', '-c', 'copy', audioOnly], { timeoutMs: 10_000 });
    const [container, audio] = [await mediaDuration(file), await mediaDuration(audioOnly)];
    expect(audio).toBeGreaterThan(1);
    expect(Math.abs(container - audio)).toBeLessThan(0.2);
    expect(Math.abs(done.duration - container)).toBeLessThan(0.05);
    const vtt = await call('GET', `${APPS}/${app}/broadcasts/${b.id}/subtitles`, 'member');
    expect(vtt.raw.payload).toMatch(/^WEBVTT\n\n00:00:00\.000 --> .*\nGood evening\.\n\n.* --> .*\nHere is the news\.\n$/);

    const part = await call('GET', `${APPS}/${app}/broadcasts/${b.id}/video`, 'member', { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(part.raw.headers['content-range']).toBe(`bytes 0-99/${mp4.length}`);
    expect(part.raw.rawPayload.equals(mp4.subarray(0, 100))).toBe(true);
    expect((await call('GET', `${APPS}/${app}/broadcasts/${b.id}/video`, 'member', { headers: { range: `bytes=${mp4.length}-` } })).status).toBe(416);

    // Other spaces and tenants see nothing of it.
    expectCode(await call('GET', `${APPS}/${app}/broadcasts/${b.id}/video`, 'foreign'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${APPS}/${app}/broadcasts`, 'outsider'), 400, 'VALIDATION-1000');

    // An edited script renders again; the new video replaces the old file.
    const [first] = await h.studio.ctx.db.select().from(broadcasts).where(eq(broadcasts.id, b.id));
    const edited = expectOk(await call('PUT', `${APPS}/${app}/broadcasts/${b.id}`, 'member', { body: { script: 'Good night.' } }));
    expect(edited.state).toMatch(/queued|running/);
    const again = await waitDone(app, b.id);
    expect(again.state).toBe('done');
    expect(again.duration).toBeLessThan(done.duration);
    const [second] = await h.studio.ctx.db.select().from(broadcasts).where(eq(broadcasts.id, b.id));
    expect(second!.videoKey).not.toBe(first!.videoKey);
    expect(fs.existsSync(path.join(tmp.dir(), first!.videoKey!))).toBe(false);
    expect(fs.existsSync(path.join(tmp.dir(), second!.videoKey!))).toBe(true);

    expectOk(await call('DELETE', `${APPS}/${app}/broadcasts/${b.id}`, 'member'));
    expect(fs.existsSync(path.join(tmp.dir(), second!.videoKey!))).toBe(false);
    expect(expectOk(await call('GET', `${APPS}/${app}/broadcasts`, 'member')).total).toBe(0);
  });

  it('renders from an idle clip, looped under the speech: the MP4 lasts as long as its audio and its picture moves', async () => {
    const clipId = expectOk(await upload(h, f.u.member.token, f.wsA, 'idle.mp4', clip, 'clip')).id;
    const c = expectOk(await call('POST', CHARS, 'member', { body: { name: 'Looper', idle_clip_file_id: clipId } }));
    const app = await newApp('workflow', 'Looped news');
    expectOk(await call('PUT', `${APPS}/${app}/digital-human`, 'member', { body: { kind: 'broadcast', character_id: c.id } }));
    // Longer than the 1 s clip, so it has to loop.
    const b = expectOk(await call('POST', `${APPS}/${app}/broadcasts`, 'member', { body: { title: 'Loop', script: 'I speak over a loop.' } }));
    const done = await waitDone(app, b.id);
    expect(done, JSON.stringify(done)).toMatchObject({ state: 'done', progress: 100 });
    const { file, container, audio } = await durations(app, b.id, 'clip');
    expect(audio).toBeGreaterThan(1.1);
    expect(Math.abs(container - audio)).toBeLessThan(0.2);
    // The test pattern moves: the upper halves of frames 0.2 s apart differ (a still look's would not,
    // but for the encoder's noise: the mouth moves only the lower face).
    const upper = async (at: number) => runFfmpeg(['-ss', String(at), '-i', file, '-frames:v', '1', '-vf', 'crop=iw:ih/2:0:0,format=gray', '-f', 'rawvideo', 'pipe:1'], { timeoutMs: 10_000 });
    const [a, z] = [await upper(0.1), await upper(0.3)];
    expect(a.length).toBe(480 * 240);
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff += Math.abs(a[i]! - z[i]!);
    expect(diff / a.length).toBeGreaterThan(2);
  });

  it('takes up again a render whose process died while it was running (drawn from an SVG portrait)', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 160"><rect width="120" height="160" fill="#e8c4a0"/><rect x="45" y="102" width="30" height="5" fill="#a04040"/></svg>';
    const face = expectOk(await upload(h, f.u.member.token, f.wsA, 'phoenix.svg', svg, 'icon')).id;
    const c = expectOk(await call('POST', CHARS, 'member', { body: { name: 'Phoenix', portrait_file_id: face } }));
    const app = await newApp('workflow', 'Second life');
    expectOk(await call('PUT', `${APPS}/${app}/digital-human`, 'member', { body: { kind: 'broadcast', character_id: c.id } }));
    const { ctx } = h.studio;
    // As if another process had taken the render's job and died midway: the job active with a lease
    // that has run out, the broadcast running at 40 %. One transaction: the worker must not see the job queued.
    const id = randomUUID();
    await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(broadcasts)
        .values({ id, tenantId: DEFAULT_TENANT_ID, appId: app, title: 'Orphan', script: 'I was left behind.', state: 'running', progress: 40, attempts: 1, createdBy: f.u.member.id })
        .returning();
      await queueRender(ctx, row!, tx);
      await tx.execute(sql`update pgboss.job set state = 'active', started_on = now() - interval '1 hour', expire_in = interval '1 second' where name = 'broadcast-render' and data->>'broadcastId' = ${id}`);
    });
    expect(expectOk(await call('GET', `${APPS}/${app}/broadcasts/${id}`, 'member'))).toMatchObject({ state: 'running', progress: 40 });
    // pg-boss's maintenance (every WEFT_JOBS_MAINTENANCE_SECONDS, in any process) expires such jobs: run it now.
    const jobs = jobsOf(ctx.db)!;
    await (jobs.boss as unknown as { expire(): Promise<void> }).expire();
    jobs.nudge('broadcast-render');
    const done = await waitDone(app, id);
    expect(done, JSON.stringify(done)).toMatchObject({ state: 'done', progress: 100, error: null });
    const [row] = await ctx.db.select().from(broadcasts).where(eq(broadcasts.id, id));
    expect(row!.attempts).toBe(2);
    expect((await call('GET', `${APPS}/${app}/broadcasts/${id}/video`, 'member')).status).toBe(200);
  });

  it('refuses an empty script or one over 1000 words with DH-1000 and stores nothing', async () => {
    const c = expectOk(await call('POST', CHARS, 'member', { body: { name: 'Counter', portrait_file_id: await portraitId() } }));
    const app = await newApp('workflow', 'Word limits');
    expectOk(await call('PUT', `${APPS}/${app}/digital-human`, 'member', { body: { kind: 'broadcast', character_id: c.id } }));
    const before = (await h.studio.ctx.db.select().from(broadcasts)).length;
    // English counts words, Chinese characters: 1001 of either is one too many.
    for (const script of ['   ', `${'word '.repeat(1001)}`, '字'.repeat(1001), `${'字'.repeat(600)} ${'word '.repeat(401)}`]) {
      const r = await call('POST', `${APPS}/${app}/broadcasts`, 'member', { body: { title: 'Too long', script } });
      expectCode(r, 400, 'DH-1000');
      expect(r.body.msg).toBe('Digital human broadcast content: required, max 1000 words');
    }
    expect((await h.studio.ctx.db.select().from(broadcasts)).length).toBe(before);
    // Exactly 1000 is allowed (stored and queued; not waited for).
    const ok = expectOk(await call('POST', `${APPS}/${app}/broadcasts`, 'member', { body: { title: 'Full', script: '字'.repeat(1000) } }));
    expect(ok.words).toBe(1000);
    expectOk(await call('DELETE', `${APPS}/${app}/broadcasts/${ok.id}`, 'member'));
    // A character without a look cannot broadcast.
    const plain = expectOk(await call('POST', CHARS, 'member', { body: { name: 'Faceless' } }));
    expectOk(await call('PUT', `${APPS}/${app}/digital-human`, 'member', { body: { kind: 'broadcast', character_id: plain.id } }));
    expectCode(await call('POST', `${APPS}/${app}/broadcasts`, 'member', { body: { title: 'x', script: 'Hello.' } }), 400, 'DH-1002');
  });
});

describe('the portal', () => {
  it("gives a conversational app's character to the portal: look, voice, greeting as opening; its persona before the user's reaches the run", async () => {
    const pid = await portraitId();
    const c = expectOk(await call('POST', CHARS, 'member', { body: { name: 'Guide', portrait_file_id: pid, voice: { voice: 'en', speed: 1.1 }, persona: 'You are Guide.', greeting: 'Hi, I am Guide.' } }));
    // The fake model records what it was sent: the system prompt carries the persona.
    const fake = await modelProvider(h);
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
    const app = await createApp(h, f.u.member.token, f.wsA, 'Guided chat', { ...doc, features: { text_to_speech: true } as never });
    const owner = { token: f.u.owner.token, workspaceId: f.wsA };
    await distribute(h, owner, app, 'portal', (await publish(h, owner, app, 'v1')).id);
    const plain = expectOk(await web(h, f.u.member.token, 'GET', `/portal/${app}`));
    expect(plain.character).toBeNull();

    expectOk(await call('PUT', `${APPS}/${app}/digital-human`, 'member', { body: { kind: 'conversation', character_id: c.id } }));
    const detail = expectOk(await web(h, f.u.member.token, 'GET', `/portal/${app}`));
    expect(detail.character).toEqual({ name: 'Guide', portrait_url: `/api/v1/common/files/${pid}/icon`, idle_clip_url: null, voice: { voice: 'en', speed: 1.1 }, greeting: 'Hi, I am Guide.' });
    expect(detail.features.opening_statement).toBe('Hi, I am Guide.');
    expect(JSON.stringify(detail)).not.toContain('You are Guide.');
    // The service API's parameters give the character's voice as Dify's text_to_speech does (the offline voice's `en`: en-US).
    const key = (await createKey(h, owner, app)).secret;
    expect((await v1(h, key, 'GET', '/parameters')).body).toMatchObject({ text_to_speech: { enabled: true, voice: 'en', language: 'en-US', autoPlay: 'enabled' } });

    const systemSent = () => {
      const body = fake.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
      return body.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
    };
    const first = await web(h, f.u.member.token, 'POST', `/portal/${app}/chat-messages`, { body: { query: 'hello' } });
    expect(first.status).toBe(200);
    const events = parseSse(first.raw.body) as { type: string; conversationId?: string }[];
    expect(systemSent()).toContain('You are Guide.');
    // The user's own character settings for the conversation come after the app's.
    const conversationId = events.find((e) => e.type === 'message_end')!.conversationId!;
    expectOk(await web(h, f.u.member.token, 'PUT', `/conversations/${conversationId}`, { body: { persona: 'Speak French.' } }));
    expect((await web(h, f.u.member.token, 'POST', `/portal/${app}/chat-messages`, { body: { query: 'again', conversation_id: conversationId } })).status).toBe(200);
    expect(systemSent()).toMatch(/You are Guide\.\n\nSpeak French\./);
    await fake.close();

    // The user's own speech rate (character settings) replaces the character's, within its range.
    const spoken = async (speed?: number) => {
      const r = await web(h, f.u.member.token, 'POST', `/portal/${app}/text-to-audio`, { body: { text: 'One two three four five six.', ...(speed ? { speed } : {}) } });
      expect(r.status, r.raw.body.slice(0, 200)).toBe(200);
      return r.raw.rawPayload.length;
    };
    const [slow, usual, fast] = [await spoken(0.5), await spoken(), await spoken(2)];
    expect(fast).toBeLessThan(usual);
    expect(usual).toBeLessThan(slow);
    expectCode(await web(h, f.u.member.token, 'POST', `/portal/${app}/text-to-audio`, { body: { text: 'Hi.', speed: 2.5 } }), 400, 'VALIDATION-1000');
    expectCode(await web(h, f.u.member.token, 'POST', `/portal/${app}/text-to-audio`, { body: { text: 'Hi.', speed: 0.25 } }), 400, 'VALIDATION-1000');
  });
});
