// Worker thread of offline-voice.ts: eSpeak NG compiled to WASM (the `espeak-ng` package) speaking one
// text per message into a WAV. Plain JavaScript, so the sources and the server build (an entry of
// scripts/build-server.mjs under this name) run it alike. The 18 MB module is compiled once per
// worker; each text gets a fresh instance of it (the package exports only its `main`, which runs once
// an instance), about 150 ms of CPU a sentence, here and not on the server's event loop.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort } from 'node:worker_threads';
import ESpeakNg from 'espeak-ng';

const wasmPath = fileURLToPath(new URL('./espeak-ng.wasm', import.meta.resolve('espeak-ng')));
const compiled = WebAssembly.compile(fs.readFileSync(wasmPath));

async function speak({ text, voice, wpm }) {
  const mod = await compiled;
  const errors = [];
  const e = await ESpeakNg({
    arguments: ['-w', '/out.wav', '-v', voice, '-s', String(wpm), '--', text],
    instantiateWasm: (imports, done) => {
      WebAssembly.instantiate(mod, imports).then((instance) => done(instance, mod));
      return {};
    },
    print() {},
    printErr: (s) => errors.push(s),
  });
  let bytes;
  try {
    bytes = e.FS.readFile("/out.wav").slice();
  } catch {
    throw new Error(`eSpeak NG wrote no audio${errors.length ? `: ${errors.join(' ').slice(0, 200)}` : ''}`);
  }
  return bytes;
}

parentPort.on('message', async (m) => {
  try {
    const wav = await speak(m);
    parentPort.postMessage({ id: m.id, ok: true, wav }, [wav.buffer]);
  } catch (err) {
    parentPort.postMessage({ id: m.id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
