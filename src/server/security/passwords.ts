import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

const options = { algorithm: 2 /* Algorithm.Argon2id (a const enum, not importable under isolatedModules) */, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, options);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A random password with letters and digits, for the first admin when none is set. */
export function generatePassword(length = 16): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  // Guarantee the policy (a letter and a digit).
  return `${out.slice(0, -2)}a7`;
}
