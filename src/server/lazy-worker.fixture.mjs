// A worker for lazy-worker.test.ts: echoes, posts two events first, fails or exits when asked.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', (m) => {
  if (m.cancel !== undefined) return parentPort.postMessage({ id: m.cancel, ok: false, error: 'cancelled' });
  if (m.exit) process.exit(3);
  if (m.hold) return;
  if (m.fail) return parentPort.postMessage({ id: m.id, ok: false, error: 'bad input' });
  parentPort.postMessage({ id: m.id, event: 1 });
  parentPort.postMessage({ id: m.id, event: 2 });
  parentPort.postMessage({ id: m.id, ok: true, echo: m.text });
});
