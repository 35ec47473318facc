import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runFfmpeg } from './ffmpeg';
import { rasterisePortrait, svgWorkerRunning } from './svg-portrait';

// SVG portraits drawn into PNGs on the SVG worker (issue 31): what is drawn and what is not, and the
// worker's walls (memory cap, time limit), each followed by a drawing that works (a fresh worker).
// tests/api/digital-humans.test.ts covers the path through characters (and that nothing outside the
// SVG is fetched or read).

const svg = (body: string, size = 'width="40" height="40"') => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ${size}>${body}</svg>`);

/** The PNG scaled to 8 × 8 RGBA by ffmpeg: [r, g, b, a] of each pixel (its scaler may shift a channel by a step or two). */
async function pixels(png: Buffer): Promise<number[][]> {
  const raw = await runFfmpeg(['-f', 'image2pipe', '-i', 'pipe:0', '-vf', 'format=rgba,scale=8:8', '-f', 'rawvideo', 'pipe:1'], { timeoutMs: 10_000, stdin: png });
  return Array.from({ length: raw.length / 4 }, (_, i) => [...raw.subarray(i * 4, i * 4 + 4)]);
}

function crc32(b: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of b) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};
/** A grey PNG whose header claims `side` × `side` pixels (its data holds one row): 30000² would decode to 900 MB. */
function claimedPng(side: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(Buffer.alloc(side + 1))), chunk('IEND', Buffer.alloc(0))]);
}

const plain = svg('<circle cx="20" cy="20" r="20" fill="#fc0"/>');

describe('SVG portraits', () => {
  it('draws 1024 px on the long side with the aspect and transparency kept; embedded images are drawn, text is not (no fonts)', async () => {
    const tall = await rasterisePortrait(svg('<rect width="30" height="60" fill="#00f"/>', 'viewBox="0 0 30 60"'));
    expect([tall.width, tall.height]).toEqual([512, 1024]);
    expect(tall.png.subarray(1, 4).toString('latin1')).toBe('PNG');
    for (const [r, g, b, a] of await pixels(tall.png)) expect(r! < 16 && g! < 16 && b! > 240 && a === 255, `tall: ${[r, g, b, a]}`).toBe(true);

    // A data: image is part of the document: drawn (so the API test's "no red" means nothing was fetched).
    const red = await runFfmpeg(['-f', 'lavfi', '-i', 'color=c=red:s=4x4', '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', 'pipe:1'], { timeoutMs: 10_000 });
    const embedded = await rasterisePortrait(svg(`<image href="data:image/png;base64,${red.toString('base64')}" width="40" height="40"/>`));
    for (const [r, g, b, a] of await pixels(embedded.png)) expect(r! > 240 && g! < 16 && b! < 16 && a === 255, `embedded: ${[r, g, b, a]}`).toBe(true);

    // Text only: nothing drawn, the picture stays transparent.
    const text = await rasterisePortrait(svg('<text x="2" y="30" font-size="30">Hi</text>'));
    expect((await pixels(text.png)).every((p) => p[3]! < 8)).toBe(true);
  });

  it('refuses what resvg cannot read with DH-1051', async () => {
    for (const bad of ['<svg xmlns="http://www.w3.org/2000/svg"><rect', 'not an svg', '<svg xmlns="http://www.w3.org/2000/svg" width="-5" height="10"/>']) {
      await expect(rasterisePortrait(Buffer.from(bad))).rejects.toMatchObject({ code: 'DH-1051', status: 400 });
    }
  });

  it('stops a decompression bomb at the WASM memory cap (DH-1052), then draws again in a fresh worker', async () => {
    const bomb = svg(`<image href="data:image/png;base64,${claimedPng(30_000).toString('base64')}" width="40" height="40"/>`);
    await expect(rasterisePortrait(bomb)).rejects.toMatchObject({ code: 'DH-1052', message: expect.stringContaining('memory') });
    expect((await rasterisePortrait(plain)).width).toBe(1024);
  });

  it('ends a drawing over the time limit (DH-1052) with its worker; the next drawing gets a new one', async () => {
    // A blur over a region 200 times the picture's: tens of seconds of drawing.
    const slow = svg('<filter id="f" x="-100" y="-100" width="200" height="200"><feGaussianBlur stdDeviation="1000"/></filter><rect width="40" height="40" filter="url(#f)"/>');
    const slowOne = rasterisePortrait(slow, { timeoutMs: 300 });
    // Queued behind it: its own time counts from its own start, so it is drawn.
    const next = rasterisePortrait(plain, { timeoutMs: 10_000 });
    await expect(slowOne).rejects.toMatchObject({ code: 'DH-1052', message: expect.stringContaining('0.3 s') });
    expect((await next).height).toBe(1024);
    expect(svgWorkerRunning()).toBe(true);
  });
});
