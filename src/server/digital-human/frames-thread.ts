/**
 * The frames worker thread's body (frames-pool.ts starts it): encodes one broadcast video per message
 * (encode.ts), posting its progress, and stops one when asked (`{ cancel: id }`). From sources,
 * ./frames-worker.mjs loads this file through tsx; the server build (scripts/build-server.mjs) bundles
 * it under that file name instead, so the pool's URL finds it in both.
 */
import { parentPort } from 'node:worker_threads';
import { encodeVideo, type EncodeJob } from './encode';

const port = parentPort!;
const running = new Map<number, AbortController>();

port.on('message', (m: { id: number; cancel?: undefined; job: EncodeJob } | { cancel: number }) => {
  if (m.cancel !== undefined) return void running.get(m.cancel)?.abort(new Error('stopped'));
  const { id, job } = m;
  const controller = new AbortController();
  running.set(id, controller);
  encodeVideo(job, controller.signal, (fraction) => port.postMessage({ id, event: fraction }))
    .then(
      () => port.postMessage({ id, ok: true }),
      (e: unknown) => port.postMessage({ id, ok: false, error: e instanceof Error ? e.message : String(e) }),
    )
    .finally(() => running.delete(id));
});
