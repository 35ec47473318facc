/**
 * Where uploaded files' bytes live: under `${settings.dataDir}/files/<tenant>/<yyyy-mm>/<file id>`
 * (the data directory resolved like the database's, relative to the working directory). The interface
 * is small so an S3-compatible store can replace it when the studio scales out.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Settings } from '../settings';

export interface FileStorage {
  /** Stores the bytes under a new key and answers it. */
  put(key: string, bytes: Buffer): Promise<void>;
  get(key: string): Promise<Buffer>;
  remove(key: string): Promise<void>;
}

const KEY_RE = /^files\/[0-9a-f-]{36}\/\d{4}-\d{2}\/[0-9a-f-]{36}$/;

/** The storage key of a new file. */
export function storageKeyOf(tenantId: string, fileId: string, at = new Date()): string {
  const month = `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
  return `files/${tenantId}/${month}/${fileId}`;
}

/** The absolute path of a key; refuses anything that is not a key this module made. */
function pathOf(settings: Pick<Settings, 'dataDir'>, key: string): string {
  if (!KEY_RE.test(key)) throw new Error(`Invalid storage key '${key}'`);
  return path.join(path.resolve(settings.dataDir), ...key.split('/'));
}

/** The local-disk storage of the data directory (read from the settings at each call). */
export function fileStorage(settings: Pick<Settings, 'dataDir'>): FileStorage {
  return {
    async put(key, bytes) {
      const file = pathOf(settings, key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.writeFile(tmp, bytes);
      await fs.rename(tmp, file);
    },
    get: (key) => fs.readFile(pathOf(settings, key)),
    async remove(key) {
      await fs.rm(pathOf(settings, key), { force: true });
    },
  };
}
