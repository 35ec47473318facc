// Worker thread of prepare-pool.ts: runs prepare.ts's prepareBatch on the texts it is sent. Plain
// JavaScript, loading the TypeScript module through tsx's scoped import, so it starts the same under
// `npm start`, the tests and the benchmarks.
import { parentPort } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { prepareBatch } = await tsImport('./prepare.ts', import.meta.url);

// A buffer of its own, to transfer: Buffer.concat and Buffer.allocUnsafe may hand back a view of
// Node's shared pool, which must be copied out first.
const own = (b) => (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : new Uint8Array(b));

parentPort.on('message', ({ id, texts, builtinVectors, rows }) => {
  try {
    const p = prepareBatch(texts ?? rows.map((r) => r.content), builtinVectors, rows);
    const tsv = own(p.tsv);
    const transfer = [tsv.buffer, p.tsvEnds.buffer];
    if (p.vectors) transfer.push(p.vectors.buffer);
    const copy = p.copy ? own(p.copy) : null;
    if (copy) transfer.push(copy.buffer);
    parentPort.postMessage({ id, ok: true, batch: { ...p, tsv, copy } }, transfer);
  } catch (e) {
    parentPort.postMessage({ id, ok: false, error: e instanceof Error ? e.message : String(e) });
  }
});
parentPort.postMessage({ ready: true });
