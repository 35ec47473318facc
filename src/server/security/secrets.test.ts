// @vitest-environment node
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, isEncrypted, SecretError } from './secrets';

const key = new Uint8Array(randomBytes(32));

describe('secrets (AES-256-GCM, v1)', () => {
  it('round-trips text, including empty and non-ASCII values', () => {
    for (const plain of ['', 'sk-123', '密码 🔑 with spaces', 'x'.repeat(10_000)]) {
      const stored = encryptSecret(key, plain);
      expect(stored.startsWith('v1:')).toBe(true);
      expect(isEncrypted(stored)).toBe(true);
      expect(decryptSecret(key, stored)).toBe(plain);
    }
  });

  it('never contains the plain text and uses a fresh IV per value', () => {
    const a = encryptSecret(key, 'same-secret-value');
    const b = encryptSecret(key, 'same-secret-value');
    expect(a).not.toBe(b);
    expect(a).not.toContain('same-secret-value');
    expect(Buffer.from(a.slice(3), 'base64url').toString('latin1')).not.toContain('same-secret-value');
    // iv (12) + ciphertext (17) + tag (16)
    expect(Buffer.from(a.slice(3), 'base64url').length).toBe(12 + 17 + 16);
  });

  it('refuses the wrong key', () => {
    const stored = encryptSecret(key, 'secret');
    expect(() => decryptSecret(new Uint8Array(randomBytes(32)), stored)).toThrow(SecretError);
  });

  it('binds the value to its additional data', () => {
    const stored = encryptSecret(key, 'secret', 'credential.sk:1');
    expect(decryptSecret(key, stored, 'credential.sk:1')).toBe('secret');
    expect(() => decryptSecret(key, stored, 'credential.sk:2')).toThrow(SecretError);
    expect(() => decryptSecret(key, stored)).toThrow(SecretError);
  });

  it('detects tampering', () => {
    const stored = encryptSecret(key, 'secret');
    const raw = Buffer.from(stored.slice(3), 'base64url');
    for (const at of [0, 12, raw.length - 1]) {
      const bad = Buffer.from(raw);
      bad[at] ^= 1;
      expect(() => decryptSecret(key, 'v1:' + bad.toString('base64url'))).toThrow(SecretError);
    }
  });

  it('refuses unknown versions, malformed values and bad keys', () => {
    expect(() => decryptSecret(key, 'plain text')).toThrow(/Unknown secret format/);
    expect(() => decryptSecret(key, 'v2:abcd')).toThrow(SecretError);
    expect(() => decryptSecret(key, 'v1:abcd')).toThrow(/Malformed/);
    expect(() => encryptSecret(new Uint8Array(16), 'x')).toThrow(/32 bytes/);
    expect(isEncrypted('secret')).toBe(false);
  });
});
