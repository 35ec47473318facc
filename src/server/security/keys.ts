import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { systemSettings } from '../db/schema';

/**
 * Reads a random key from system_settings, creating it on first use. Kept in the database so that
 * every server process on the same database signs and encrypts alike.
 */
export async function ensureKey(db: Db, key: string, bytes = 32): Promise<Uint8Array> {
  const fresh = randomBytes(bytes).toString('base64');
  await db.insert(systemSettings).values({ key, value: fresh }).onConflictDoNothing();
  const [row] = await db.select().from(systemSettings).where(eq(systemSettings.key, key));
  return new Uint8Array(Buffer.from(row.value, 'base64'));
}
