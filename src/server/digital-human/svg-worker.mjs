// Worker thread of svg-portrait.ts: draws an SVG portrait into a PNG with resvg (the
// `@resvg/resvg-wasm` package, Rust compiled to WASM). Plain JavaScript, so the sources and the server
// build (an entry of scripts/build-server.mjs under this name) run it alike. Loaded on the first SVG
// portrait, never at the server's start; stopped after a while idle.
//
// What an SVG may not do here:
// - reach outside itself: resvg draws only what the document holds (shapes, text, `data:` images).
//   An <image> or <use> naming an http(s) URL is only listed (imagesToResolve) and never resolved by
//   this code; file paths and file:// URLs cannot be read, as WASM has no file system.
// - take the process's memory: the module's memory gets a maximum (MAX_PAGES) before it is compiled,
//   so a decompression bomb in a `data:` image (a 5 MB PNG can claim gigabytes of pixels) fails in
//   resvg as a trap; the caller then ends this worker, whose module may be left in a broken state.
// - take the CPU: a filter over a huge region can draw for tens of seconds; the caller times the
//   job out and ends this worker (a synchronous draw cannot be stopped from inside).
// Text needs fonts and none is loaded (the package ships none, and WASM cannot read the system's):
// <text> is not drawn.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { initWasm, Resvg } from '@resvg/resvg-wasm';

/** 256 MB in 64 KiB pages: a 1024 px canvas takes 4 MB, its filters a few copies of that. */
const MAX_PAGES = 4096;

const leb128 = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};

/** Reads an unsigned LEB128 at `at`: [value, next offset]. */
function readLeb(b, at) {
  let value = 0;
  let shift = 0;
  let x;
  do {
    x = b[at++];
    value |= (x & 0x7f) << shift;
    shift += 7;
  } while (x & 0x80);
  return [value >>> 0, at];
}

/**
 * The module's bytes with a maximum on its own memory: its memory section (id 5) declares one memory
 * with an initial size only; rewritten as initial + maximum, `memory.grow` fails past it.
 */
export function withMemoryCap(wasm, maxPages) {
  for (let p = 8; p < wasm.length; ) {
    const start = p;
    const id = wasm[p++];
    const [size, body] = readLeb(wasm, p);
    if (id === 5) {
      if (wasm[body] !== 1 || wasm[body + 1] !== 0) throw new Error('unexpected memory section in the resvg module');
      const [initial] = readLeb(wasm, body + 2);
      const section = Buffer.from([1, 1, ...leb128(initial), ...leb128(Math.max(initial, maxPages))]);
      return Buffer.concat([wasm.subarray(0, start), Buffer.from([5, ...leb128(section.length)]), section, wasm.subarray(body + size)]);
    }
    p = body + size;
  }
  throw new Error('no memory section in the resvg module');
}

const wasmPath = fileURLToPath(new URL('./index_bg.wasm', import.meta.resolve('@resvg/resvg-wasm')));
let ready = null;
const init = () => (ready ??= initWasm(withMemoryCap(fs.readFileSync(wasmPath), MAX_PAGES)));

// No fonts: faster, and nothing looked up on the host.
const FONT = { loadSystemFonts: false };

/**
 * One portrait: `{ svg, size, minSide }` → `{ png, width, height }`, or `failure`: 'unreadable' (not
 * an SVG resvg can parse, or no size) or 'limits' (too thin to draw at `size`, or the memory cap hit;
 * `trapped` says the module must not be used again).
 */
async function draw({ svg, size, minSide }) {
  await init();
  let probe;
  try {
    probe = new Resvg(svg, { font: FONT });
  } catch (e) {
    return { failure: 'unreadable', message: e instanceof Error ? e.message : String(e), trapped: e instanceof WebAssembly.RuntimeError };
  }
  const [w, h] = [probe.width, probe.height];
  probe.free();
  // The long side drawn at `size`, the aspect kept.
  const zoom = size / Math.max(w, h);
  if (!(zoom > 0) || !Number.isFinite(zoom) || Math.min(w, h) * zoom < minSide) {
    return { failure: 'limits', message: `The SVG is ${w} × ${h}: drawn ${size} px long, its short side would be under ${minSide} px` };
  }
  try {
    const r = new Resvg(svg, { font: FONT, fitTo: { mode: 'zoom', value: zoom } });
    const img = r.render();
    const png = img.asPng();
    const out = { png, width: img.width, height: img.height };
    img.free();
    r.free();
    return out;
  } catch (e) {
    const trapped = e instanceof WebAssembly.RuntimeError;
    return { failure: trapped ? 'limits' : 'unreadable', message: trapped ? 'The SVG needs more memory than a portrait may take' : e instanceof Error ? e.message : String(e), trapped };
  }
}

parentPort?.on('message', async (m) => {
  try {
    const out = await draw(m);
    parentPort.postMessage({ id: m.id, ok: true, ...out }, out.png ? [out.png.buffer] : []);
  } catch (err) {
    parentPort.postMessage({ id: m.id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
