import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunStreamEvent } from '../../schemas/run-api';
import { decodePng, encodePng, pngSize } from '../../src/server/providers/images/png';
import { fakeOpenAi, type FakeServer } from './fake-providers';
import { useStudio } from './harness';
import { upload, useTempDataDir } from './knowledge-kit';
import { configureProvider, createApp, flow, model, parseSse, prompt, RUNS } from './runs-kit';
import { expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// Vision: the image mode of an LLM or agent node reaches the provider. Images go as OpenAI-style
// `image_url` parts with their `detail`; low fits them in 512×512 first (spec 9), high sends them
// as uploaded. A file the run's user may not read never goes.

const h = useStudio();
useTempDataDir(h);
let f: Fixture;
let fake: FakeServer;

/** A 1024×768 PNG: a gradient, opaque. */
function bigPng(): Buffer {
  const width = 1024;
  const height = 768;
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([i % 256, (i >> 8) % 256, 128, 255], i * 4);
  return encodePng({ width, height, data });
}

/** A debug upload (what the builder's preview chat attaches). */
const uploadOk = async (h_: typeof h, token: string, workspaceId: string, name: string, bytes: Buffer | string) => expectOk(await upload(h_, token, workspaceId, name, bytes, 'debug')).id as string;

const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });

async function chat(appId: string, body: Record<string, unknown>): Promise<RunStreamEvent[]> {
  const r = await h.call('POST', `${RUNS(appId)}/draft/chat-messages`, { ...member(), body });
  expect(r.status, r.raw.body).toBe(200);
  return parseSse(r.raw.body);
}

type Part = { type: string; text?: string; image_url?: { url: string; detail?: string } };
/** The image parts of the last user message of the provider's last request. */
function sentImages(): Part[] {
  const messages = fake.requests.at(-1)!.body.messages as { role: string; content: string | Part[] }[];
  const user = messages.filter((m) => m.role === 'user').at(-1)!;
  return Array.isArray(user.content) ? user.content.filter((p) => p.type === 'image_url') : [];
}
const bytesOf = (dataUrl: string) => Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');

const agentDoc = (vision: Record<string, unknown>) =>
  flow(
    [
      ['start', 'start'],
      ['agent', 'agent', { model: model('openai', 'gpt-4o-mini'), instructions: 'Describe pictures.', ...vision }],
      ['answer', 'answer', { answer: '{{#agent.text#}}' }],
    ],
    [
      ['start', 'agent'],
      ['agent', 'answer'],
    ],
    'agent',
  );

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'vision');
  fake = await fakeOpenAi();
  h.allowOutbound(fake.baseUrl);
  await configureProvider(h, 'openai', fake.baseUrl);
});
afterAll(() => fake?.close());

describe('vision', () => {
  it('low: the agent sends the user’s image fitted in 512×512 with detail "low"', async () => {
    const png = bigPng();
    const fileId = await uploadOk(h, f.u.member.token, f.wsA, 'photo.png', png);
    const app = await createApp(h, f.u.member.token, f.wsA, 'Low eyes', agentDoc({ visionEnabled: true, visionDetail: 'low' }));
    const events = await chat(app, { query: 'What is this?', files: [{ file_id: fileId, name: 'photo.png', type: 'image/png' }] });
    expect(events.at(-1)!.type).toBe('run_finished');
    const images = sentImages();
    expect(images).toHaveLength(1);
    expect(images[0].image_url!.detail).toBe('low');
    expect(images[0].image_url!.url).toMatch(/^data:image\/png;base64,/);
    expect(pngSize(bytesOf(images[0].image_url!.url))).toEqual({ width: 512, height: 384 });
    // The text of the message goes beside it.
    const user = (fake.requests.at(-1)!.body.messages as { role: string; content: Part[] }[]).at(-1)!;
    expect(user.content[0]).toEqual({ type: 'text', text: 'What is this?' });
  });

  it('high: the LLM node sends the image as uploaded with detail "high"', async () => {
    const png = bigPng();
    const fileId = await uploadOk(h, f.u.member.token, f.wsA, 'chart.png', png);
    const doc = flow(
      [
        ['s', 'start'],
        [
          'llm',
          'llm',
          {
            model: model('openai', 'gpt-4o-mini'),
            prompts: [prompt('system', 'Read charts.'), prompt('user', '{{#sys.query#}}')],
            visionEnabled: true,
            visionFiles: ['sys', 'files'],
            visionDetail: 'high',
          },
        ],
        ['ans', 'answer', { answer: '{{#llm.text#}}' }],
      ],
      [
        ['s', 'llm'],
        ['llm', 'ans'],
      ],
      'chatflow',
    );
    const app = await createApp(h, f.u.member.token, f.wsA, 'High eyes', doc);
    await chat(app, { query: 'Read it', files: [{ file_id: fileId }] });
    const images = sentImages();
    expect(images.map((p) => p.image_url!.detail)).toEqual(['high']);
    expect(bytesOf(images[0].image_url!.url).equals(png)).toBe(true);
    expect(decodePng(bytesOf(images[0].image_url!.url), 1e7)).toMatchObject({ width: 1024, height: 768 });
  });

  it('off (the agent’s default): the files do not go to the model; a document in the variable is left out', async () => {
    const fileId = await uploadOk(h, f.u.member.token, f.wsA, 'photo.png', bigPng());
    const off = await createApp(h, f.u.member.token, f.wsA, 'Blind', agentDoc({}));
    await chat(off, { query: 'See?', files: [{ file_id: fileId }] });
    expect(sentImages()).toEqual([]);
    expect(fake.requests.at(-1)!.body.messages.at(-1)).toEqual({ role: 'user', content: 'See?' });

    const text = await uploadOk(h, f.u.member.token, f.wsA, 'notes.txt', 'just text');
    const on = await createApp(h, f.u.member.token, f.wsA, 'Sees images only', agentDoc({ visionEnabled: true, visionDetail: 'low' }));
    await chat(on, { query: 'And this?', files: [{ file_id: text }] });
    expect(sentImages()).toEqual([]);
  });

  it('never sends a file the run’s user may not read (a start input naming someone else’s upload)', async () => {
    // The outsider's own upload, in their project space.
    const foreign = await uploadOk(h, f.u.outsider.token, f.wsC, 'secret.png', bigPng());
    const doc = flow(
      [
        ['start', 'start', { variables: [{ name: 'pic', label: 'Picture', type: 'file', required: true, options: [], allowed_extensions: [] }] }],
        ['agent', 'agent', { model: model('openai', 'gpt-4o-mini'), instructions: 'Look.', visionEnabled: true, visionFiles: ['start', 'pic'], visionDetail: 'low' }],
        ['answer', 'answer', { answer: '{{#agent.text#}}' }],
      ],
      [
        ['start', 'agent'],
        ['agent', 'answer'],
      ],
      'agent',
    );
    const app = await createApp(h, f.u.member.token, f.wsA, 'Peeks', doc);
    const before = fake.requests.length;
    const r = await h.call('POST', `${RUNS(app)}/draft/chat-messages`, { ...member(), body: { query: 'Look', inputs: { pic: { id: foreign, name: 'secret.png', size: 10, mime_type: 'image/png' } } } });
    // A draft run's start inputs are not checked at the door: the agent refuses to send the file.
    expect(r.status, r.raw.body).toBe(200);
    const failed = parseSse(r.raw.body).find((e) => e.type === 'node_failed');
    expect(failed).toMatchObject({ nodeId: 'agent', error: { code: 'VISION-FILE' } });
    // Nothing of it reached the provider.
    expect(fake.requests.slice(before).every((q) => !JSON.stringify(q.body).includes('image_url'))).toBe(true);
  });
});
