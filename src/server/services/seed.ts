import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { tenants, users, workspaceMembers, workspaces } from '../db/schema';
import { DEFAULT_TENANT_ID } from '../../../schemas/common';
import { generatePassword } from '../security/passwords';
import { createUser, rootOrg } from './users';

/** The advisory lock key of the first start's seeding (any constant unique to it). */
const SEED_LOCK = 0x77656674;

export interface SeedResult {
  /** Set only on the start that created the admin. */
  created: boolean;
  username: string;
  /** The password, when generated on this start (printed once). */
  generatedPassword?: string;
}

/**
 * First start: the default tenant (all-zero id), its root organisation, a super admin and a
 * default workspace owned by the admin. Later starts change nothing.
 */
export async function seed(db: Db, adminUser: string, adminPassword?: string): Promise<SeedResult> {
  await db
    .insert(tenants)
    .values({ id: DEFAULT_TENANT_ID, name: 'Default tenant', isDefault: true, createdBy: 'system', updatedBy: 'system' })
    .onConflictDoNothing();
  await rootOrg(db, DEFAULT_TENANT_ID);
  const existing = async (q: Pick<Db, 'select'>) => (await q.select().from(users).where(eq(users.role, 'super_admin')).limit(1))[0];
  const found = await existing(db);
  if (found) return { created: false, username: found.username };
  const password = adminPassword ?? generatePassword();
  // The admin and their workspace together: a start that fails half-way must not leave an admin
  // whose generated password was never shown (the next start would see the admin and skip this).
  const other = await db.transaction(async (tx) => {
    // Processes starting at once on one server: one makes the admin, the others wait here and then
    // find it (the lock ends with the transaction).
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK})`);
    const meanwhile = await existing(tx);
    if (meanwhile) return meanwhile.username;
    const admin = await createUser(tx, {
      tenantId: DEFAULT_TENANT_ID,
      username: adminUser,
      password,
      role: 'super_admin',
      // No real name is known yet: the username stands in (createUser), the same in every language, where
      // an English 'Administrator' showed as the creator of everything in the Chinese UI.
    });
    const wsId = randomUUID();
    await tx.insert(workspaces).values({
      id: wsId,
      tenantId: DEFAULT_TENANT_ID,
      name: 'Default project space',
      description: 'Created on first start',
      createdBy: admin.id,
    });
    await tx.insert(workspaceMembers).values({ id: randomUUID(), workspaceId: wsId, userId: admin.id, role: 'owner' });
    return undefined;
  });
  if (other) return { created: false, username: other };
  return { created: true, username: adminUser, generatedPassword: adminPassword ? undefined : password };
}
