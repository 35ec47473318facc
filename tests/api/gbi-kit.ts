import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GOOD_KEY } from './fake-providers';

export interface ScriptedModel {
  baseUrl: string;
  requests: { messages: { role: string; content: string }[] }[];
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible fake for the GBI tests: the SQL it writes for a question (the last user
 * message) comes from `script`; a retry after a database error ("The database answered…") gets the
 * second entry of a pair. The written answer is always the same sentence.
 */
export async function scriptedModel(script: Record<string, string | [string, string]>): Promise<ScriptedModel> {
  const requests: ScriptedModel['requests'] = [];
  const server = http.createServer(async (req, res) => {
    const parts: Buffer[] = [];
    for await (const c of req) parts.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(parts).toString('utf8'));
    if (req.headers.authorization !== `Bearer ${GOOD_KEY}`) return res.writeHead(401).end('{}');
    requests.push({ messages: body.messages });
    const msgs: { role: string; content: string }[] = body.messages;
    const last = msgs.at(-1)!.content;
    const system = msgs.find((m) => m.role === 'system')?.content ?? '';
    let text = 'The answer is in the table.';
    if (!system.startsWith('Answer the question')) {
      const retry = last.startsWith('The database answered with an error');
      const question = retry ? msgs.filter((m) => m.role === 'user').at(-2)!.content : last;
      const s = script[question] ?? 'select 1';
      text = Array.isArray(s) ? s[retry ? 1 : 0] : s;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta: unknown, finish: string | null = null) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: text }));
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}
