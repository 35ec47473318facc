import { eq, inArray } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { users, workspaceMembers, workspaces } from '../../src/server/db/schema';
import { seed } from '../../src/server/services/seed';
import { useStudio } from './harness';

// Two processes starting at once on one PostgreSQL server (scale-out, or a restart overlapping the
// old process) both find no super admin: exactly one of them may create one.
const h = useStudio();
const db = () => h.studio.ctx.db;

it('two first starts at the same moment make one super admin, and neither fails', async () => {
  const admins = await db().update(users).set({ role: 'user' }).where(eq(users.role, 'super_admin')).returning({ id: users.id });
  try {
    const results = await Promise.all([seed(db(), 'race_a', 'Passw0rd123'), seed(db(), 'race_b', 'Passw0rd123')]);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const made = await db().select({ username: users.username, role: users.role }).from(users).where(inArray(users.username, ['race_a', 'race_b']));
    expect(made).toHaveLength(1);
    expect(made[0].role).toBe('super_admin');
    // The start that did not create it names the admin that exists.
    expect(results.find((r) => !r.created)?.username).toBe(made[0].username);
  } finally {
    const ids = (await db().select({ id: users.id }).from(users).where(inArray(users.username, ['race_a', 'race_b']))).map((u) => u.id);
    if (ids.length) {
      await db().delete(workspaceMembers).where(inArray(workspaceMembers.userId, ids));
      await db().delete(workspaces).where(inArray(workspaces.createdBy, ids));
    }
    await db().delete(users).where(inArray(users.username, ['race_a', 'race_b']));
    for (const a of admins) await db().update(users).set({ role: 'super_admin' }).where(eq(users.id, a.id));
  }
});

it('the first start names the admin by their username: no English "Administrator" for a Chinese UI to show', async () => {
  const [admin] = await db().select({ username: users.username, realName: users.realName }).from(users).where(eq(users.role, 'super_admin'));
  expect(admin.realName).toBe(admin.username);
});
