/**
 * The indexing worker thread's body (prepare-pool.ts starts it): runs prepareBatch on the texts it
 * is sent. From sources, ./prepare-worker.mjs loads this file through tsx; the server build
 * (scripts/build-server.mjs) bundles it as that same file name, so the pool's URL finds it in both.
 */
import { parentPort } from 'node:worker_threads';
import { prepareBatch, type CopyRow } from './prepare';

// A buffer of its own, to transfer: Buffer.concat and Buffer.allocUnsafe may hand back a view of
// Node's shared pool, which must be copied out first.
const own = (b: Uint8Array) => (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : new Uint8Array(b));

interface Job {
  id: number;
  texts: string[] | null;
  builtinVectors: boolean;
  rows?: readonly CopyRow[];
}

const port = parentPort!;
port.on('message', ({ id, texts, builtinVectors, rows }: Job) => {
  try {
    const p = prepareBatch(texts ?? (rows ?? []).map((r) => r.content), builtinVectors, rows);
    const tsv = own(p.tsv);
    const transfer: ArrayBuffer[] = [tsv.buffer as ArrayBuffer, p.tsvEnds.buffer as ArrayBuffer];
    if (p.vectors) transfer.push(p.vectors.buffer as ArrayBuffer);
    const copy = p.copy ? own(p.copy) : null;
    if (copy) transfer.push(copy.buffer as ArrayBuffer);
    port.postMessage({ id, ok: true, batch: { ...p, tsv, copy } }, transfer);
  } catch (e) {
    port.postMessage({ id, ok: false, error: e instanceof Error ? e.message : String(e) });
  }
});
port.postMessage({ ready: true });
