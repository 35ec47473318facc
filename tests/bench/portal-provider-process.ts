/**
 * The fake OpenAI-compatible provider of `npm run bench:portal`, in a process of its own (a real
 * provider is never in the server's process): it streams each chat completion as the API tests'
 * fake does (the same chunk shapes and answer, ANSWER_CHUNKS), but waits FIRST_TOKEN_MS (100)
 * before its first content chunk and CHUNK_MS (500) between the next ones, so that 200 streams
 * overlap. CHUNKS=n streams n chunks instead (a longer answer: more work per stream). It measures its own first-token delay
 * per request (request read to first content chunk written, timer slack included) and reports them
 * by the tag in the user message (`#17 …`), so the bench subtracts exactly what the provider took.
 * Prints its base URL as one JSON line; on the stdin line `report` prints `{ delays }`; exits when
 * stdin ends.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { ANSWER_CHUNKS, GOOD_KEY } from '../api/fake-providers';

const FIRST_TOKEN_MS = Number(process.env.FIRST_TOKEN_MS ?? 100);
const CHUNK_MS = Number(process.env.CHUNK_MS ?? 500);
const TEXTS = process.env.CHUNKS ? Array.from({ length: Number(process.env.CHUNKS) }, (_, i) => (i ? ` w${i}` : 'Hel')) : ANSWER_CHUNKS;
const delays: Record<string, number> = {};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const server = http.createServer(async (req, res) => {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  const t0 = performance.now();
  if (req.headers.authorization !== `Bearer ${GOOD_KEY}` || req.url !== '/v1/chat/completions') {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"no such route or key"}}');
    return;
  }
  const body = JSON.parse(Buffer.concat(parts).toString('utf8'));
  const last = String(body.messages?.at(-1)?.content ?? '');
  const tag = /#(\d+)/.exec(last)?.[1] ?? '?';
  const chunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1_700_000_000, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(chunk({ role: 'assistant', content: '' }));
  await sleep(FIRST_TOKEN_MS);
  res.write(chunk({ content: TEXTS[0] }));
  delays[tag] = performance.now() - t0;
  for (let i = 1; i < TEXTS.length && !res.destroyed; i++) {
    await sleep(CHUNK_MS);
    res.write(chunk({ content: TEXTS[i] }));
  }
  res.write(chunk({}, 'stop'));
  res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1_700_000_000, model: body.model, choices: [], usage: { prompt_tokens: 12, completion_tokens: TEXTS.length, total_tokens: 12 + TEXTS.length } })}\n\n`);
  res.end('data: [DONE]\n\n');
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` })}\n`);
});
createInterface({ input: process.stdin })
  .on('line', (line) => {
    if (line.trim() === 'report') process.stdout.write(`${JSON.stringify({ delays })}\n`);
  })
  .on('close', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
