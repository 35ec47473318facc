// Worker thread of prepare-pool.ts: runs prepare.ts's prepareBatch on the texts it is sent. Plain
// JavaScript, loading the TypeScript module through tsx's scoped import, so it starts the same under
// `npm start`, the tests and the benchmarks.
import { parentPort } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { prepareBatch } = await tsImport('./prepare.ts', import.meta.url);

parentPort.on('message', ({ id, texts, builtinVectors }) => {
  try {
    const p = prepareBatch(texts, builtinVectors);
    const transfer = [p.tsv.buffer, p.tsvEnds.buffer];
    if (p.vectors) transfer.push(p.vectors.buffer);
    // Buffer.concat may hand back a view of Node's shared pool: copy it out before transferring.
    const tsv = p.tsv.byteOffset === 0 && p.tsv.byteLength === p.tsv.buffer.byteLength ? p.tsv : new Uint8Array(p.tsv);
    transfer[0] = tsv.buffer;
    parentPort.postMessage({ id, ok: true, batch: { ...p, tsv } }, transfer);
  } catch (e) {
    parentPort.postMessage({ id, ok: false, error: e instanceof Error ? e.message : String(e) });
  }
});
parentPort.postMessage({ ready: true });
