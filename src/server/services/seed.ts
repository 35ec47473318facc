import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { tenants, users, workspaceMembers, workspaces } from '../db/schema';
import { DEFAULT_TENANT_ID } from '../../../schemas/common';
import { generatePassword } from '../security/passwords';
import { createUser, rootOrg } from './users';

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
  const admins = await db.select().from(users).where(eq(users.role, 'super_admin')).limit(1);
  if (admins[0]) return { created: false, username: admins[0].username };
  const password = adminPassword ?? generatePassword();
  // The admin and their workspace together: a start that fails half-way must not leave an admin
  // whose generated password was never shown (the next start would see the admin and skip this).
  await db.transaction(async (tx) => {
    const admin = await createUser(tx, {
      tenantId: DEFAULT_TENANT_ID,
      username: adminUser,
      password,
      role: 'super_admin',
      realName: 'Administrator',
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
  });
  return { created: true, username: adminUser, generatedPassword: adminPassword ? undefined : password };
}
