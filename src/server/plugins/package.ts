import { readFileSync } from 'node:fs';
import { ErrorCode } from '../../../schemas/errors';
import { PluginPackageManifest } from '../../../schemas/plugin-package';
import { AppError } from '../errors';
import { ArchiveError, bundleChecksum, readArchive } from './archive';

/** This server's version (package.json), which a package's `min_weft_version` is compared with. */
export const WEFT_VERSION: string = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** An opened, verified package: its manifest and the two bundles. */
export interface PluginPackage {
  manifest: PluginPackageManifest;
  server: Buffer;
  browser: Buffer;
}

/** The message says only what is wrong (the catalogue text for the code says the rest). */
export const invalidPackage = (why: string) => new AppError(400, ErrorCode.PLUGIN_PACKAGE_INVALID, why);
export const incompatible = (why: string) => new AppError(400, ErrorCode.PLUGIN_INCOMPATIBLE, why);

/** -1, 0 or 1 as a is older than, the same as or newer than b (major.minor.patch; pre-release ignored). */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split('-')[0].split('.').map((n) => Number(n) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0) ? -1 : 1;
  return 0;
}

/**
 * Reads a package: archive, manifest, then the checksum over the bundles. Nothing of it runs here;
 * a package that passes may still fail to load (the host reports that).
 */
export function openPackage(bytes: Uint8Array): PluginPackage {
  let files: Map<string, Buffer>;
  try {
    files = readArchive(bytes);
  } catch (e) {
    if (e instanceof ArchiveError) throw invalidPackage(e.message);
    throw e;
  }
  const need = (name: string) => {
    const f = files.get(name);
    if (!f) throw invalidPackage(`${name} is missing`);
    return f;
  };
  let raw: unknown;
  try {
    raw = JSON.parse(need('manifest.json').toString('utf8'));
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw invalidPackage('manifest.json is not JSON');
  }
  const parsed = PluginPackageManifest.safeParse(raw);
  if (!parsed.success) throw invalidPackage(`manifest.json: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`);
  const manifest = parsed.data;
  const server = need('server.mjs');
  const browser = need('browser.mjs');
  if (bundleChecksum(server, browser) !== manifest.checksum) {
    throw new AppError(400, ErrorCode.PLUGIN_CHECKSUM_MISMATCH, `The SHA-256 of server.mjs and browser.mjs is not the manifest's ${manifest.checksum.slice(0, 12)}…`);
  }
  if (compareVersions(WEFT_VERSION, manifest.min_weft_version) < 0) {
    throw incompatible(`${manifest.id} ${manifest.version} needs Weft ${manifest.min_weft_version} or newer (this server is ${WEFT_VERSION})`);
  }
  return { manifest, server, browser };
}
