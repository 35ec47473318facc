import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { DEFAULT_TENANT_ID, ok } from '../../../../schemas/common';
import { PublicTenant } from '../../../../schemas/tenant';
import type { ServerContext } from '../../context';
import { tenants } from '../../db/schema';

const tags = ['common'];
const toPublic = (t: typeof tenants.$inferSelect) => ({ id: t.id, name: t.name, is_default: t.isDefault });

/** Public tenant info for the sign-in page. */
export const commonTenantRoutes = (ctx: ServerContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/default/info', { schema: { tags, summary: 'The default tenant', response: { 200: ok(PublicTenant) } } }, async () => {
    const [t] = await ctx.db.select().from(tenants).where(eq(tenants.id, DEFAULT_TENANT_ID));
    return { code: 0 as const, msg: 'success', data: toPublic(t) };
  });
  app.get('/default/list', { schema: { tags, summary: 'Enabled tenants to sign in to', response: { 200: ok(z.array(PublicTenant)) } } }, async () => {
    const rows = await ctx.db.select().from(tenants).where(eq(tenants.status, 1)).orderBy(asc(tenants.createdAt));
    rows.sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
    return { code: 0 as const, msg: 'success', data: rows.map(toPublic) };
  });
};
