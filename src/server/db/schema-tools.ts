/** Tables of the tools area. Re-exported from ./schema, so drizzle-kit and the services see one schema. */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { apps, tenants, workspaces } from './schema';

/**
 * Tools of a workspace (spec 3 "Tool"; 7.5 tools). `type` says how the functions run: `custom` (HTTP
 * functions in tool_functions), `mcp` (the server in `mcp_config`; its tools listed live, the ones
 * switched on in `mcp_enabled`), `workflow` (the workflow app `workflow_app_id`, one function).
 * `inner` tools are built in (plugins/tool/builtin.ts) and have no row. `auth` is the default auth
 * for new functions of the tool.
 */
export const tools = pgTable(
  'tools',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    workspaceId: uuid('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['custom', 'mcp', 'workflow', 'inner', 'plugin'] }).notNull(),
    name: text('name').notNull(),
    intro: text('intro').notNull().default(''),
    icon: jsonb('icon').$type<{ iconPath?: string; icon?: string; iconColor?: string; iconId?: string }>().notNull(),
    status: text('status', { enum: ['draft', 'published'] }).notNull().default('draft'),
    auth: jsonb('auth').$type<Record<string, unknown>>().notNull().default({ type: 'none' }),
    mcpConfig: jsonb('mcp_config').$type<Record<string, unknown> | null>(),
    mcpEnabled: jsonb('mcp_enabled').$type<string[]>().notNull().default([]),
    workflowAppId: uuid('workflow_app_id').references(() => apps.id, { onDelete: 'set null' }),
    publishedVersion: integer('published_version').notNull().default(0),
    /** The store item it was copied from (issue 23), null when made here. */
    storeOriginId: uuid('store_origin_id'),
    /** How it came (spec 3 "install method"; schemas/tool.ts ToolInstallMethod): kept, since an OpenAPI import is not derivable. */
    installMethod: text('install_method', { enum: ['manual', 'openapi', 'mcp', 'workflow', 'plugin', 'store', 'builtin'] }).notNull().default('manual'),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tools_ws_name').on(t.workspaceId, sql`lower(${t.name})`), index('tools_ws_created').on(t.workspaceId, t.createdAt)],
);

/** HTTP functions of a custom tool (spec 3 "Tool function"); parameter rows saved without ids. */
export const toolFunctions = pgTable(
  'tool_functions',
  {
    id: uuid('id').primaryKey(),
    toolId: uuid('tool_id')
      .notNull()
      .references(() => tools.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    method: text('method').notNull().default('GET'),
    url: text('url').notNull().default(''),
    auth: jsonb('auth').$type<Record<string, unknown>>().notNull().default({ type: 'none' }),
    params: jsonb('params').$type<unknown[]>().notNull().default([]),
    headers: jsonb('headers').$type<unknown[]>().notNull().default([]),
    body: jsonb('body').$type<unknown[]>().notNull().default([]),
    bodySubtype: text('body_subtype').notNull().default('json'),
    response: jsonb('response').$type<unknown[]>().notNull().default([]),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tool_functions_tool_name').on(t.toolId, sql`lower(${t.name})`)],
);

/** Published snapshots of a tool (its fields and functions), numbered from 1. */
export const toolVersions = pgTable(
  'tool_versions',
  {
    id: uuid('id').primaryKey(),
    toolId: uuid('tool_id')
      .notNull()
      .references(() => tools.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    note: text('note').notNull().default(''),
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tool_versions_tool_version').on(t.toolId, t.version)],
);
