import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GOOD_KEY } from './fake-providers';

/**
 * A local fake TTS/STT provider speaking the OpenAI audio protocol over real HTTP:
 * `POST /v1/audio/speech` (JSON) answers a real WAV (made once with eSpeak NG: tests/fixtures/audio),
 * `POST /v1/audio/transcriptions` parses the multipart upload and answers `{ text }` of the script.
 * Every request is recorded (the speech inputs, the uploaded file's name, type and size) so tests
 * check what the production client sent. A wrong key answers 401, an unknown model 404.
 */

export const FIXTURES = new URL('../fixtures/audio/', import.meta.url);
export const fixtureWav = (name: 'ask-en' | 'ask-zh' | 'answer-en') => fs.readFileSync(new URL(`${name}.wav`, FIXTURES));

export interface SpeechRequest {
  model: string;
  input: string;
  voice: string;
  speed?: number;
  response_format?: string;
}
export interface TranscriptionRequest {
  model: string;
  language?: string;
  fileName: string;
  fileType: string;
  fileBytes: number;
  riff: boolean;
}

export interface FakeSpeech {
  baseUrl: string;
  speech: SpeechRequest[];
  transcriptions: TranscriptionRequest[];
  /** What the next transcriptions answer (the last one repeats). */
  transcript: string;
  /** Models the server knows (others answer 404). */
  models: Set<string>;
  close(): Promise<void>;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

export async function fakeSpeech(opts: { models?: string[]; delayMs?: number } = {}): Promise<FakeSpeech> {
  const wav = fixtureWav('answer-en');
  const fake: Omit<FakeSpeech, 'baseUrl' | 'close'> = {
    speech: [],
    transcriptions: [],
    transcript: 'What is the capital of France?',
    models: new Set(opts.models ?? ['tts-1', 'whisper-1', 'gpt-4o-mini-tts', 'gpt-4o-mini-transcribe']),
  };
  const server = http.createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks);
      if (req.headers.authorization !== `Bearer ${GOOD_KEY}`) return json(res, 401, { error: { message: 'Incorrect API key provided' } });
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      if (req.method === 'POST' && req.url === '/v1/audio/speech') {
        const b = JSON.parse(body.toString('utf8')) as SpeechRequest;
        fake.speech.push(b);
        if (!fake.models.has(b.model)) return json(res, 404, { error: { message: `The model ${b.model} does not exist` } });
        if (!b.input) return json(res, 400, { error: { message: 'input is required' } });
        // Answered as WAV whatever was asked for, labelled generically: the client goes by the bytes.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(wav);
      }
      if (req.method === 'POST' && req.url === '/v1/audio/transcriptions') {
        const form = await new Response(body, { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
        const file = form.get('file');
        if (!(file instanceof Blob)) return json(res, 400, { error: { message: 'file is required' } });
        const bytes = Buffer.from(await file.arrayBuffer());
        const model = String(form.get('model') ?? '');
        fake.transcriptions.push({
          model,
          language: (form.get('language') as string | null) ?? undefined,
          fileName: (file as File).name,
          fileType: file.type,
          fileBytes: bytes.length,
          riff: bytes.subarray(0, 4).toString('latin1') === 'RIFF',
        });
        if (!fake.models.has(model)) return json(res, 404, { error: { message: `The model ${model} does not exist` } });
        return json(res, 200, { text: fake.transcript });
      }
      return json(res, 404, { error: { message: 'no such route' } });
    } catch (e) {
      return json(res, 500, { error: { message: String(e) } });
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake as FakeSpeech, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  });
}
