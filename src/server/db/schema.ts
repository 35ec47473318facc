import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const stamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** Process-wide settings shared by every server process on the database (signing and encryption keys). */
export const systemSettings = pgTable('system_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  status: integer('status').notNull().default(1),
  isDefault: boolean('is_default').notNull().default(false),
  createdBy: text('created_by').notNull().default(''),
  updatedBy: text('updated_by').notNull().default(''),
  ...stamps,
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    nickname: text('nickname').notNull().default(''),
    realName: text('real_name').notNull().default(''),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    avatar: text('avatar').notNull().default(''),
    serialNumber: text('serial_number').notNull(),
    role: text('role', { enum: ['super_admin', 'tenant_admin', 'user'] }).notNull().default('user'),
    status: integer('status').notNull().default(1),
    /** Bumped on password change or disable: invalidates every token issued before. */
    tokenVersion: integer('token_version').notNull().default(0),
    ...stamps,
  },
  (t) => [uniqueIndex('users_tenant_username').on(t.tenantId, sql`lower(${t.username})`)],
);

/**
 * A sign-in session: one per login. Its refresh tokens rotate as one family; its access tokens carry
 * its id (`sid`). Revoked by logout, by the reuse of a rotated refresh token, or with all of the
 * user's sessions on a password change or disable.
 */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_sessions_user').on(t.userId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** The session (token family) the token belongs to. */
    sessionId: uuid('session_id').notNull().references(() => authSessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash').on(t.tokenHash),
    index('refresh_tokens_user').on(t.userId),
    index('refresh_tokens_session').on(t.sessionId),
  ],
);

/**
 * Failed sign-ins (and wrong old passwords on a password change) per key: an account at one address,
 * an account, an address (security/login-limits.ts). In the database so every process counts them.
 */
export const loginThrottles = pgTable(
  'login_throttles',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull().default(0),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [index('login_throttles_last_failure').on(t.lastFailureAt)],
);

export const orgs = pgTable(
  'orgs',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    parentId: uuid('parent_id'),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
    ...stamps,
  },
  (t) => [index('orgs_tenant_parent').on(t.tenantId, t.parentId)],
);

export const orgUsers = pgTable(
  'org_users',
  {
    orgId: uuid('org_id').notNull().references(() => orgs.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    isMaster: boolean('is_master').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId] }), index('org_users_user').on(t.userId)],
);

export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    icon: text('icon').notNull().default(''),
    createdBy: uuid('created_by').notNull(),
    ...stamps,
  },
  (t) => [index('workspaces_tenant').on(t.tenantId)],
);

export const workspaceMembers = pgTable(
  'workspace_members',
  {
    id: uuid('id').primaryKey(),
    workspaceId: uuid('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'admin', 'ordinary_member'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('workspace_members_ws_user').on(t.workspaceId, t.userId), index('workspace_members_user').on(t.userId)],
);

// ------------------------------------------------------------ project-space resources (issue 6)

/** Credentials of a workspace; `sk_enc` is the SK encrypted by security/secrets.ts (never plain). */
export const credentials = pgTable(
  'credentials',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    workspaceId: uuid('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    identifier: text('identifier').notNull(),
    ak: text('ak').notNull().default(''),
    skEnc: text('sk_enc').notNull(),
    credId: text('cred_id').notNull().default(''),
    description: text('description').notNull().default(''),
    createdBy: uuid('created_by').notNull(),
    ...stamps,
  },
  (t) => [uniqueIndex('credentials_ws_identifier').on(t.workspaceId, sql`lower(${t.identifier})`)],
);

/**
 * External databases of a workspace. `password_enc` is encrypted (never plain). `settings_version`
 * grows whenever a connection field changes, so a check started on older settings cannot
 * overwrite the status of newer ones.
 */
export const externalDatabases = pgTable(
  'external_databases',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    workspaceId: uuid('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type', { enum: ['mysql', 'oracle', 'sqlserver', 'postgresql', 'clickhouse', 'dm'] }).notNull(),
    host: text('host').notNull(),
    port: integer('port').notNull(),
    account: text('account').notNull(),
    passwordEnc: text('password_enc').notNull(),
    database: text('database').notNull().default(''),
    sid: text('sid').notNull().default(''),
    remark: text('remark').notNull().default(''),
    queryLimit: integer('query_limit').notNull().default(100),
    status: text('status', { enum: ['detecting', 'success', 'failed'] }).notNull().default('detecting'),
    statusCode: text('status_code').notNull().default(''),
    statusMessage: text('status_message').notNull().default(''),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    settingsVersion: integer('settings_version').notNull().default(1),
    createdBy: uuid('created_by').notNull(),
    ...stamps,
  },
  (t) => [uniqueIndex('external_databases_ws_name').on(t.workspaceId, sql`lower(${t.name})`)],
);

/** Prompt templates of a workspace. */
export const prompts = pgTable(
  'prompts',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    workspaceId: uuid('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    content: text('content').notNull(),
    templateType: text('template_type', { enum: ['jinja2', 'f-string'] }).notNull(),
    scene: text('scene', { enum: ['llm_chain', 'retrieval_chain', 'extract_chain', 'analysis_chain'] }).notNull(),
    variables: jsonb('variables').$type<{ name: string; description: string; default: string }[]>().notNull().default([]),
    model: jsonb('model').$type<{ provider: string; name: string } | null>(),
    /** The store item it was copied from (issue 23), null when made here. */
    storeOriginId: uuid('store_origin_id'),
    createdBy: uuid('created_by').notNull(),
    ...stamps,
  },
  (t) => [uniqueIndex('prompts_ws_name').on(t.workspaceId, sql`lower(${t.name})`)],
);

/**
 * Apps of a workspace (spec 3 App). The type is one of the four modes and never changes; the icon
 * is the spec's icon value `{ iconPath?, icon?, iconColor?, iconId? }`.
 */
export const apps = pgTable(
  'apps',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    workspaceId: uuid('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    type: text('type', { enum: ['agent', 'chatflow', 'workflow', 'agent_team'] }).notNull(),
    icon: jsonb('icon').$type<{ iconPath?: string; icon?: string; iconColor?: string; iconId?: string }>().notNull(),
    status: text('status', { enum: ['active', 'inactive'] }).notNull().default('active'),
    /** The store item it was copied from (issue 23), null when made here. */
    storeOriginId: uuid('store_origin_id'),
    createdBy: uuid('created_by').notNull(),
    ...stamps,
  },
  (t) => [
    uniqueIndex('apps_ws_name').on(t.workspaceId, sql`lower(${t.name})`),
    index('apps_ws_created').on(t.workspaceId, t.createdAt),
  ],
);

/**
 * The draft flow document of an app (one row per app, kept apart so app lists never load it).
 * `revision` grows by one with each save that changes something; a save must name the revision it
 * was based on (no silent overwrite). `secretEnv` holds the secret environment variables' values,
 * encrypted, by variable id (the document itself never contains them).
 */
export const appDrafts = pgTable('app_drafts', {
  appId: uuid('app_id')
    .primaryKey()
    .references(() => apps.id, { onDelete: 'cascade' }),
  revision: integer('revision').notNull().default(1),
  document: jsonb('document').$type<Record<string, unknown>>().notNull(),
  secretEnv: jsonb('secret_env').$type<Record<string, string>>().notNull().default({}),
  updatedBy: uuid('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

// ------------------------------------------------------------ model providers (issue 5)

/**
 * A tenant's credentials for one provider of the catalogue. `config` holds the plain fields
 * (base_url); `secret_enc` the key, encrypted by security/secrets.ts and bound to the row's id.
 */
export const modelProviderCredentials = pgTable(
  'model_provider_credentials',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    provider: text('provider').notNull(),
    config: jsonb('config').$type<{ base_url?: string }>().notNull().default({}),
    secretEnc: text('secret_enc').notNull(),
    updatedBy: uuid('updated_by').notNull(),
    ...stamps,
  },
  (t) => [uniqueIndex('model_provider_credentials_tenant_provider').on(t.tenantId, t.provider)],
);

/** An admin's choice to enable or disable a model; without a row a model is enabled. */
export const modelSettings = pgTable(
  'model_settings',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    provider: text('provider').notNull(),
    modelType: text('model_type').notNull(),
    model: text('model').notNull(),
    enabled: boolean('enabled').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.provider, t.modelType, t.model] })],
);

/** Models an admin added to a provider (self-hosted servers, releases the catalogue lacks). */
export const customModels = pgTable(
  'custom_models',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    provider: text('provider').notNull(),
    modelType: text('model_type').notNull(),
    model: text('model').notNull(),
    label: text('label').notNull().default(''),
    features: jsonb('features').$type<string[]>().notNull().default([]),
    contextSize: integer('context_size').notNull().default(0),
    maxOutputTokens: integer('max_output_tokens').notNull().default(0),
    createdBy: uuid('created_by').notNull(),
    ...stamps,
  },
  (t) => [uniqueIndex('custom_models_tenant_model').on(t.tenantId, t.provider, t.modelType, t.model)],
);

/** The tenant's default model of each type (spec 3: "each with a default model"). */
export const tenantDefaultModels = pgTable(
  'tenant_default_models',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    modelType: text('model_type').notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.modelType] })],
);
export * from './schema-runs';
export * from './schema-tools';
export * from './schema-knowledge';
export * from './schema-apps';
export * from './schema-portal';
export * from './schema-store';
export * from './schema-api';
export * from './schema-plugins';
export * from './schema-sso';
export * from './schema-login-codes';
export * from './schema-approvals';
export * from './schema-gbi';
export * from './schema-digital-humans';
