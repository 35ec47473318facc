import type { Rgba } from './raster';

/**
 * A baseline JPEG decoder (sequential Huffman, 8-bit, greyscale or YCbCr with any chroma
 * subsampling, restart intervals), enough to shrink photos before they go to a model. Progressive,
 * arithmetic-coded, lossless, 12-bit and CMYK files are refused (null), as is anything malformed:
 * the caller then sends the image as it is. EXIF orientation is not applied (the model sees the
 * pixels as stored, as it would the original).
 */

export const isJpeg = (b: Uint8Array) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

/** Natural-order index of each zig-zag position. */
const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44,
  51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
];

/** IDCT basis: COS[u * 8 + x] = c(u) / 2 · cos((2x + 1)uπ / 16). */
const COS = new Float64Array(64);
for (let u = 0; u < 8; u++) for (let x = 0; x < 8; x++) COS[u * 8 + x] = ((u === 0 ? Math.SQRT1_2 : 1) / 2) * Math.cos(((2 * x + 1) * u * Math.PI) / 16);

interface Huffman {
  maxcode: Int32Array;
  mincode: Int32Array;
  valptr: Int32Array;
  values: Uint8Array;
}

interface Component {
  id: number;
  h: number;
  v: number;
  tq: number;
  /** Blocks per line and per column of the component's plane (padded to whole MCUs). */
  bpl: number;
  bpc: number;
  plane: Uint8Array;
  td: number;
  ta: number;
  pred: number;
}

class Corrupt extends Error {}

function huffman(counts: Uint8Array, values: Uint8Array): Huffman {
  const maxcode = new Int32Array(18).fill(-1);
  const mincode = new Int32Array(17);
  const valptr = new Int32Array(17);
  let code = 0;
  let k = 0;
  for (let l = 1; l <= 16; l++) {
    valptr[l] = k;
    mincode[l] = code;
    code += counts[l - 1];
    k += counts[l - 1];
    maxcode[l] = counts[l - 1] ? code - 1 : -1;
    code <<= 1;
  }
  return { maxcode, mincode, valptr, values };
}

/** Decodes a baseline JPEG to RGBA; null when it is not one this decoder reads. */
export function decodeJpeg(input: Uint8Array, maxPixels: number): Rgba | null {
  try {
    return decode(input, maxPixels);
  } catch (e) {
    if (e instanceof Corrupt || e instanceof RangeError) return null;
    throw e;
  }
}

function decode(d: Uint8Array, maxPixels: number): Rgba | null {
  if (!isJpeg(d)) return null;
  const u16 = (i: number) => {
    if (i + 1 >= d.length) throw new Corrupt();
    return (d[i] << 8) | d[i + 1];
  };
  const quant: Int32Array[] = [];
  const dc: Huffman[] = [];
  const ac: Huffman[] = [];
  let comps: Component[] = [];
  let width = 0;
  let height = 0;
  let hmax = 1;
  let vmax = 1;
  let restart = 0;
  let adobeRgb = false;
  let decoded = false;
  let at = 2;
  while (at < d.length) {
    if (d[at] !== 0xff) throw new Corrupt();
    const m = d[at + 1];
    if (m === 0xff) {
      at++;
      continue;
    }
    at += 2;
    if (m === 0xd8 || (m >= 0xd0 && m <= 0xd7)) continue;
    if (m === 0xd9) break;
    const len = u16(at);
    const seg = at + 2;
    const end = at + len;
    if (end > d.length) throw new Corrupt();
    if (m === 0xc0 || m === 0xc1) {
      if (d[seg] !== 8) return null;
      height = u16(seg + 1);
      width = u16(seg + 3);
      const n = d[seg + 5];
      if (!width || !height || width * height > maxPixels || (n !== 1 && n !== 3)) return null;
      comps = [];
      for (let i = 0; i < n; i++) {
        const o = seg + 6 + i * 3;
        comps.push({ id: d[o], h: d[o + 1] >> 4 || 1, v: d[o + 1] & 15 || 1, tq: d[o + 2], bpl: 0, bpc: 0, plane: new Uint8Array(0), td: 0, ta: 0, pred: 0 });
      }
      hmax = Math.max(...comps.map((c) => c.h));
      vmax = Math.max(...comps.map((c) => c.v));
      const mcuX = Math.ceil(width / (8 * hmax));
      const mcuY = Math.ceil(height / (8 * vmax));
      for (const c of comps) {
        c.bpl = mcuX * c.h;
        c.bpc = mcuY * c.v;
        c.plane = new Uint8Array(c.bpl * 8 * c.bpc * 8);
      }
    } else if (m >= 0xc2 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) {
      return null; // progressive, lossless or arithmetic coding
    } else if (m === 0xc4) {
      for (let o = seg; o < end; ) {
        const tc = d[o] >> 4;
        const th = d[o] & 15;
        const counts = d.subarray(o + 1, o + 17);
        const total = counts.reduce((a, b) => a + b, 0);
        const table = huffman(counts, d.slice(o + 17, o + 17 + total));
        (tc === 0 ? dc : ac)[th] = table;
        o += 17 + total;
      }
    } else if (m === 0xdb) {
      for (let o = seg; o < end; ) {
        const wide = d[o] >> 4;
        const t = new Int32Array(64);
        for (let k = 0; k < 64; k++) t[k] = wide ? u16(o + 1 + k * 2) : d[o + 1 + k];
        quant[d[o] & 15] = t;
        o += 1 + (wide ? 128 : 64);
      }
    } else if (m === 0xdd) {
      restart = u16(seg);
    } else if (m === 0xee) {
      // Adobe: transform 0 means the three components are RGB, not YCbCr.
      if (len >= 12 && String.fromCharCode(...d.subarray(seg, seg + 5)) === 'Adobe') adobeRgb = d[seg + 11] === 0;
    } else if (m === 0xda) {
      if (!comps.length) throw new Corrupt();
      const ns = d[seg];
      const scan: Component[] = [];
      for (let i = 0; i < ns; i++) {
        const c = comps.find((x) => x.id === d[seg + 1 + i * 2]);
        if (!c) throw new Corrupt();
        c.td = d[seg + 2 + i * 2] >> 4;
        c.ta = d[seg + 2 + i * 2] & 15;
        scan.push(c);
      }
      at = decodeScan(d, end, scan, { width, height, hmax, vmax, restart, quant, dc, ac });
      decoded = true;
      continue;
    }
    at = end;
  }
  if (!decoded) return null;
  return toRgba(comps, width, height, hmax, vmax, adobeRgb);
}

interface ScanContext {
  width: number;
  height: number;
  hmax: number;
  vmax: number;
  restart: number;
  quant: Int32Array[];
  dc: Huffman[];
  ac: Huffman[];
}

/** Decodes one scan starting at `start`; returns where the next marker begins. */
function decodeScan(d: Uint8Array, start: number, scan: Component[], x: ScanContext): number {
  let pos = start;
  let bits = 0;
  let count = 0;
  const bit = (): number => {
    if (count === 0) {
      let b = 0;
      if (pos < d.length) {
        b = d[pos];
        if (b === 0xff) {
          if (d[pos + 1] === 0) pos += 2;
          else b = 0; // a marker: the data ended; feed zeros without moving past it
        } else pos++;
      }
      bits = b;
      count = 8;
    }
    count--;
    return (bits >> count) & 1;
  };
  const decodeHuff = (t: Huffman | undefined): number => {
    if (!t) throw new Corrupt();
    let code = 0;
    for (let l = 1; l <= 16; l++) {
      code = (code << 1) | bit();
      if (t.maxcode[l] >= code && code >= t.mincode[l]) return t.values[t.valptr[l] + code - t.mincode[l]];
    }
    throw new Corrupt();
  };
  const extend = (s: number): number => {
    if (!s) return 0;
    let v = 0;
    for (let i = 0; i < s; i++) v = (v << 1) | bit();
    return v < 1 << (s - 1) ? v - (1 << s) + 1 : v;
  };
  const coef = new Float64Array(64);
  const tmp = new Float64Array(64);
  const block = (c: Component, row: number, col: number) => {
    const q = x.quant[c.tq];
    if (!q) throw new Corrupt();
    coef.fill(0);
    const t = decodeHuff(x.dc[c.td]);
    c.pred += extend(t);
    coef[0] = c.pred * q[0];
    for (let k = 1; k < 64; ) {
      const rs = decodeHuff(x.ac[c.ta]);
      const r = rs >> 4;
      const s = rs & 15;
      if (!s) {
        if (r !== 15) break;
        k += 16;
        continue;
      }
      k += r;
      if (k > 63) break;
      coef[ZIGZAG[k]] = extend(s) * q[k];
      k++;
    }
    // Rows then columns: tmp[v][x] = Σu C[u][x]·F[v][u]; f[y][x] = Σv C[v][y]·tmp[v][x].
    for (let v = 0; v < 8; v++) {
      for (let xx = 0; xx < 8; xx++) {
        let sum = 0;
        for (let u = 0; u < 8; u++) sum += COS[u * 8 + xx] * coef[v * 8 + u];
        tmp[v * 8 + xx] = sum;
      }
    }
    const line = c.bpl * 8;
    for (let y = 0; y < 8; y++) {
      const o = (row * 8 + y) * line + col * 8;
      for (let xx = 0; xx < 8; xx++) {
        let sum = 0;
        for (let v = 0; v < 8; v++) sum += COS[v * 8 + y] * tmp[v * 8 + xx];
        const p = Math.round(sum + 128);
        c.plane[o + xx] = p < 0 ? 0 : p > 255 ? 255 : p;
      }
    }
  };
  const reset = () => {
    count = 0;
    // Past the restart marker (RSTn) that ends the interval.
    while (pos + 1 < d.length && !(d[pos] === 0xff && d[pos + 1] >= 0xd0 && d[pos + 1] <= 0xd7)) pos++;
    pos += 2;
    for (const c of scan) c.pred = 0;
  };
  for (const c of scan) c.pred = 0;
  if (scan.length === 1) {
    // Not interleaved: the component's own blocks, those covering the image only.
    const c = scan[0];
    const cols = Math.ceil(Math.ceil((x.width * c.h) / x.hmax) / 8);
    const rows = Math.ceil(Math.ceil((x.height * c.v) / x.vmax) / 8);
    for (let n = 0; n < cols * rows; n++) {
      if (x.restart && n && n % x.restart === 0) reset();
      block(c, Math.floor(n / cols), n % cols);
    }
  } else {
    const mcuX = Math.ceil(x.width / (8 * x.hmax));
    const mcuY = Math.ceil(x.height / (8 * x.vmax));
    for (let n = 0; n < mcuX * mcuY; n++) {
      if (x.restart && n && n % x.restart === 0) reset();
      const my = Math.floor(n / mcuX);
      const mx = n % mcuX;
      for (const c of scan) for (let by = 0; by < c.v; by++) for (let bx = 0; bx < c.h; bx++) block(c, my * c.v + by, mx * c.h + bx);
    }
  }
  // The next marker (not a stuffed byte, not a restart).
  while (pos + 1 < d.length && !(d[pos] === 0xff && d[pos + 1] !== 0 && !(d[pos + 1] >= 0xd0 && d[pos + 1] <= 0xd7))) pos++;
  return pos;
}

function toRgba(comps: Component[], width: number, height: number, hmax: number, vmax: number, rgb: boolean): Rgba {
  const data = new Uint8Array(width * height * 4);
  const at = (c: Component, x: number, y: number) => c.plane[Math.floor((y * c.v) / vmax) * c.bpl * 8 + Math.floor((x * c.h) / hmax)];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      data[o + 3] = 255;
      if (comps.length === 1) {
        data[o] = data[o + 1] = data[o + 2] = at(comps[0], x, y);
        continue;
      }
      const a = at(comps[0], x, y);
      const b = at(comps[1], x, y);
      const c = at(comps[2], x, y);
      if (rgb) {
        data[o] = a;
        data[o + 1] = b;
        data[o + 2] = c;
        continue;
      }
      // JFIF's YCbCr → RGB.
      const cb = b - 128;
      const cr = c - 128;
      const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));
      data[o] = clamp(a + 1.402 * cr);
      data[o + 1] = clamp(a - 0.344136 * cb - 0.714136 * cr);
      data[o + 2] = clamp(a + 1.772 * cb);
    }
  }
  return { width, height, data };
}
