import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * The package archive: a gzip'd ustar holding plain files at its root (no folders, links or
 * special entries). Written here and read here, so the format has no dependency; readers refuse
 * what they did not expect rather than guess (a truncated archive, a name with a path, a checksum
 * that does not add up).
 */

export class ArchiveError extends Error {}

const BLOCK = 512;
const MAX_FILES = 16;
const MAX_UNPACKED = 50 * 1024 * 1024;

function octal(buf: Buffer, offset: number, length: number, value: number) {
  buf.write(value.toString(8).padStart(length - 1, '0') + '\0', offset, length, 'ascii');
}

function header(name: string, size: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100, 'utf8');
  octal(h, 100, 8, 0o644);
  octal(h, 108, 8, 0);
  octal(h, 116, 8, 0);
  octal(h, 124, 12, size);
  octal(h, 136, 12, 0);
  h.fill(' ', 148, 156);
  h.write('0', 156, 1, 'ascii');
  h.write('ustar\0' + '00', 257, 8, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii');
  return h;
}

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Packs files (name → bytes) into a .tgz. Names are plain file names. */
export function writeArchive(files: Record<string, Uint8Array | string>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, content] of Object.entries(files)) {
    if (!NAME_RE.test(name)) throw new ArchiveError(`"${name}" is not a plain file name`);
    const bytes = Buffer.from(content);
    parts.push(header(name, bytes.length), bytes, Buffer.alloc((BLOCK - (bytes.length % BLOCK)) % BLOCK));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(parts));
}

/** Unpacks a .tgz written by {@link writeArchive}; throws ArchiveError for anything else. */
export function readArchive(tgz: Uint8Array): Map<string, Buffer> {
  let tar: Buffer;
  try {
    tar = gunzipSync(tgz, { maxOutputLength: MAX_UNPACKED });
  } catch (e) {
    throw new ArchiveError(`Not a gzip archive, or truncated (${(e as Error).message})`);
  }
  const files = new Map<string, Buffer>();
  let at = 0;
  for (;;) {
    if (at + BLOCK > tar.length) throw new ArchiveError('The archive ends before its end marker (truncated)');
    const h = tar.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) break;
    const stored = parseInt(h.toString('ascii', 148, 156).replace(/\0.*$/, '').trim(), 8);
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i];
    if (stored !== sum) throw new ArchiveError('An entry header is damaged (header checksum)');
    const name = h.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    const type = String.fromCharCode(h[156] || 48);
    const size = parseInt(h.toString('ascii', 124, 136).replace(/\0.*$/, '').trim() || '0', 8);
    if (type !== '0' || !NAME_RE.test(name)) throw new ArchiveError(`Unexpected entry "${name}" (only plain files at the root)`);
    if (files.has(name)) throw new ArchiveError(`"${name}" is in the archive twice`);
    if (files.size >= MAX_FILES) throw new ArchiveError('Too many files');
    const start = at + BLOCK;
    if (start + size > tar.length) throw new ArchiveError(`"${name}" is cut short (truncated)`);
    files.set(name, Buffer.from(tar.subarray(start, start + size)));
    at = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}

/** The bundles' checksum as the manifest states it: SHA-256 of server.mjs, a NUL byte, browser.mjs. */
export function bundleChecksum(server: Uint8Array, browser: Uint8Array): string {
  return createHash('sha256').update(server).update(Buffer.from([0])).update(browser).digest('hex');
}
