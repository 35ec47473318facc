import { crc32, deflateSync, inflateSync } from 'node:zlib';
import type { Rgba } from './raster';

/**
 * A small PNG codec on node:zlib, enough to shrink uploaded images before they go to a model:
 * decodes non-interlaced PNGs of every colour type and depth (palette and transparency included)
 * to 8-bit RGBA, and encodes RGBA as an 8-bit PNG. Interlaced images are refused (null), as is
 * anything malformed; the caller then sends the image as it is.
 */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export const isPng = (b: Uint8Array) => b.length > 8 && Buffer.from(b.buffer, b.byteOffset, 8).equals(SIGNATURE);

/** Samples per pixel of each colour type (0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA). */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** The PNG's width and height from its header, without decoding (null: not a PNG). */
export function pngSize(b: Uint8Array): { width: number; height: number } | null {
  if (!isPng(b) || b.length < 24) return null;
  const v = Buffer.from(b.buffer, b.byteOffset, b.length);
  return { width: v.readUInt32BE(16), height: v.readUInt32BE(20) };
}

/** Decodes a PNG to RGBA; null when it is not one this codec reads. */
export function decodePng(input: Uint8Array, maxPixels: number): Rgba | null {
  if (!isPng(input)) return null;
  const b = Buffer.from(input.buffer, input.byteOffset, input.length);
  let at = 8;
  let width = 0;
  let height = 0;
  let depth = 0;
  let type = 0;
  let palette: Buffer | undefined;
  let trns: Buffer | undefined;
  const idat: Buffer[] = [];
  while (at + 8 <= b.length) {
    const len = b.readUInt32BE(at);
    const name = b.toString('latin1', at + 4, at + 8);
    const data = b.subarray(at + 8, at + 8 + len);
    if (data.length !== len) return null;
    if (name === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      depth = data[8];
      type = data[9];
      if (data[12] !== 0) return null; // interlaced
    } else if (name === 'PLTE') palette = data;
    else if (name === 'tRNS') trns = data;
    else if (name === 'IDAT') idat.push(data);
    else if (name === 'IEND') break;
    at += 12 + len;
  }
  const channels = CHANNELS[type];
  if (!channels || !width || !height || width * height > maxPixels || ![1, 2, 4, 8, 16].includes(depth)) return null;
  if (type === 3 && !palette) return null;
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(idat));
  } catch {
    return null;
  }
  const bitsPerPixel = channels * depth;
  const stride = Math.ceil((width * bitsPerPixel) / 8);
  const bpp = Math.max(1, bitsPerPixel >> 3);
  if (raw.length < (stride + 1) * height) return null;
  const rows = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const out = y * stride;
    for (let x = 0; x < stride; x++) {
      const left = x >= bpp ? rows[out + x - bpp] : 0;
      const up = y ? rows[out - stride + x] : 0;
      const upLeft = y && x >= bpp ? rows[out - stride + x - bpp] : 0;
      const v = raw[src + x];
      rows[out + x] = (filter === 0 ? v : filter === 1 ? v + left : filter === 2 ? v + up : filter === 3 ? v + ((left + up) >> 1) : v + paeth(left, up, upLeft)) & 0xff;
    }
  }
  const data = new Uint8Array(width * height * 4);
  const max = depth === 16 ? 0xffff : (1 << depth) - 1;
  // Sample `i` of row `y` as stored (a palette index, or a value of 0..max).
  const rawAt = (y: number, i: number): number => {
    const row = y * stride;
    if (depth === 16) return rows.readUInt16BE(row + i * 2);
    if (depth === 8) return rows[row + i];
    const bit = i * depth;
    return (rows[row + (bit >> 3)] >> (8 - depth - (bit & 7))) & max;
  };
  const scaled = (y: number, i: number) => (depth === 8 ? rawAt(y, i) : Math.round((rawAt(y, i) * 255) / max));
  // The one transparent colour of grey and RGB images (tRNS), in stored values.
  const key = trns && type !== 3 ? [0, 1, 2].slice(0, channels).map((i) => (trns.length >= i * 2 + 2 ? trns.readUInt16BE(i * 2) : -1)) : undefined;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const s = x * channels;
      if (type === 3) {
        const idx = rawAt(y, s);
        data[o] = palette![idx * 3] ?? 0;
        data[o + 1] = palette![idx * 3 + 1] ?? 0;
        data[o + 2] = palette![idx * 3 + 2] ?? 0;
        data[o + 3] = trns && idx < trns.length ? trns[idx] : 255;
      } else if (channels <= 2) {
        const g = scaled(y, s);
        data[o] = data[o + 1] = data[o + 2] = g;
        data[o + 3] = channels === 2 ? scaled(y, s + 1) : key && rawAt(y, s) === key[0] ? 0 : 255;
      } else {
        data[o] = scaled(y, s);
        data[o + 1] = scaled(y, s + 1);
        data[o + 2] = scaled(y, s + 2);
        const transparent = key && rawAt(y, s) === key[0] && rawAt(y, s + 1) === key[1] && rawAt(y, s + 2) === key[2];
        data[o + 3] = channels === 4 ? scaled(y, s + 3) : transparent ? 0 : 255;
      }
    }
  }
  return { width, height, data };
}

function chunk(name: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(name, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** Encodes RGBA as an 8-bit PNG (RGB when every pixel is opaque), each row with the "sub" filter. */
export function encodePng(img: Rgba): Buffer {
  const { width, height, data } = img;
  let opaque = true;
  for (let i = 3; i < data.length && opaque; i += 4) opaque = data[i] === 255;
  const channels = opaque ? 3 : 4;
  const stride = width * channels;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1);
    raw[row] = 1;
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) {
        const v = data[(y * width + x) * 4 + c];
        const left = x ? data[(y * width + x - 1) * 4 + c] : 0;
        raw[row + 1 + x * channels + c] = (v - left) & 0xff;
      }
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = opaque ? 2 : 6;
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
