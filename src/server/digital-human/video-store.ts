/**
 * Where rendered videos live: `${dataDir}/videos/<tenant>/<broadcast>-<generation>.mp4`, and each
 * render's scratch directory under `${dataDir}/videos/work/`. Keys are made here and checked on use,
 * so no stored value can point outside the data directory.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Settings } from '../settings';

const KEY_RE = /^videos\/[0-9a-f-]{36}\/[0-9a-f-]{36}-\d+\.mp4$/;

export const videoKeyOf = (tenantId: string, broadcastId: string, generation: number) => `videos/${tenantId}/${broadcastId}-${generation}.mp4`;

export function videoPath(settings: Pick<Settings, 'dataDir'>, key: string): string {
  if (!KEY_RE.test(key)) throw new Error(`Invalid video key '${key}'`);
  return path.join(path.resolve(settings.dataDir), ...key.split('/'));
}

export async function removeVideo(settings: Pick<Settings, 'dataDir'>, key: string | null | undefined): Promise<void> {
  if (key) await fs.rm(videoPath(settings, key), { force: true });
}

/** A fresh scratch directory for one render (the caller removes it). */
export async function workDirOf(settings: Pick<Settings, 'dataDir'>, broadcastId: string, generation: number): Promise<string> {
  const dir = path.join(path.resolve(settings.dataDir), 'videos', 'work', `${broadcastId}-${generation}-${process.pid}`);
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });
  return dir;
}
