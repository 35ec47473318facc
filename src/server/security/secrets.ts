import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (credentials' SK, database passwords, model keys): AES-256-GCM under the
 * server's secret key (ServerContext.secretKey, kept in system_settings), a fresh random 96-bit IV
 * per value, and a version prefix so the scheme can change later without guessing.
 *
 * Stored form: `v1:` + base64url(iv[12] ‖ ciphertext ‖ tag[16]).
 *
 * `aad` (additional authenticated data) binds a ciphertext to where it belongs, e.g.
 * `credential.sk:<id>`: a value copied into another row or column no longer decrypts.
 */

const VERSION = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretError extends Error {}

function checkKey(key: Uint8Array) {
  if (key.length !== 32) throw new SecretError(`The secret key must be 32 bytes (got ${key.length})`);
}

export function isEncrypted(stored: string): boolean {
  return stored.startsWith(VERSION);
}

export function encryptSecret(key: Uint8Array, plain: string, aad = ''): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  if (aad) cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** Throws SecretError for an unknown version, a malformed value, the wrong key or aad, or tampering. */
export function decryptSecret(key: Uint8Array, stored: string, aad = ''): string {
  checkKey(key);
  if (!isEncrypted(stored)) throw new SecretError('Unknown secret format');
  const raw = Buffer.from(stored.slice(VERSION.length), 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretError('Malformed secret');
  const iv = raw.subarray(0, IV_BYTES);
  const tag = raw.subarray(raw.length - TAG_BYTES);
  const body = raw.subarray(IV_BYTES, raw.length - TAG_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    if (aad) decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretError('The secret cannot be decrypted (wrong key or tampered value)');
  }
}
