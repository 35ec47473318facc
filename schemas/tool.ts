import { z } from 'zod';
import { AppIcon } from './app';
import { Id, Timestamp } from './common';
import { needsId, noId, pageNumber, pageSize } from './guards';
import { BodySubtype, PARAM_MESSAGES, ParamRow, paramTableSchema, type BodySubtype as BodySubtypeT } from './parameter';

/**
 * Tools of a project space (spec 3 "Tool", "Tool function", "Parameter row"; 4; 5; 7.5 tools; 9 tool
 * types). Roles (spec 6 leaves them open; Weft's choice, like credentials): every member reads and
 * tests functions; owner and admin create, change, publish, delete, and add MCP servers (an stdio
 * MCP server runs a command on the server).
 */

export const TOOL_PAGE_MAX = 1000;

/** Spec 9. `inner` tools are the built-in ones (no row); `plugin` is reserved for installed plugins. */
export const TOOL_TYPES = ['inner', 'custom', 'mcp', 'workflow', 'plugin'] as const;
export const ToolType = z.enum(TOOL_TYPES);
export type ToolType = z.infer<typeof ToolType>;

/**
 * How a tool came into its project space (spec 3 "install method"): made by hand, imported from an
 * OpenAPI/Swagger document, an MCP server's config, a workflow app offered as a tool, a plugin, or
 * copied from the tool store. Built-in (`inner`) tools are `builtin`.
 */
export const TOOL_INSTALL_METHODS = ['manual', 'openapi', 'mcp', 'workflow', 'plugin', 'store', 'builtin'] as const;
export const ToolInstallMethod = z.enum(TOOL_INSTALL_METHODS);
export type ToolInstallMethod = z.infer<typeof ToolInstallMethod>;

export const ToolStatus = z.enum(['draft', 'published']);
export type ToolStatus = z.infer<typeof ToolStatus>;

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export const HttpMethod = z.enum(HTTP_METHODS);
export type HttpMethod = z.infer<typeof HttpMethod>;

const REQUIRED = 'This form field is required!';

/**
 * How a function authenticates (spec 3 "auth type, field key and value, add-to location"). The
 * secret comes from a credential of the workspace (never stored here): API key = the credential's
 * SK under `key` in a header or the query; bearer = `Authorization: Bearer <SK>`; basic = AK as
 * user and SK as password.
 */
export const ToolAuth = z.discriminatedUnion('type', [
  z.object({ type: z.literal('none') }).strict(),
  z
    .object({
      type: z.literal('api_key'),
      location: z.enum(['header', 'query']),
      key: z.string().trim().min(1, REQUIRED).max(100).regex(/^[A-Za-z0-9_.-]+$/, 'field key may contain only English letters, digits, _ . -'),
      credential_id: Id,
    })
    .strict(),
  z.object({ type: z.literal('bearer'), credential_id: Id }).strict(),
  z.object({ type: z.literal('basic'), credential_id: Id }).strict(),
]);
export type ToolAuth = z.infer<typeof ToolAuth>;
export const AUTH_TYPES = ['none', 'api_key', 'bearer', 'basic'] as const;

/**
 * One MCP server (the value under a name in `mcpServers`): a remote URL (streamable HTTP, or SSE with
 * `type: "sse"`), or a command over stdio, which only runs where the operator allows the command.
 */
export const McpStdioServer = z
  .object({
    type: z.literal('stdio').optional(),
    command: z.string().trim().min(1, REQUIRED).max(500),
    args: z.array(z.string().max(2000)).max(100).default([]),
    env: z.record(z.string().max(200), z.string().max(4000)).default({}),
    cwd: z.string().max(500).optional(),
  })
  .strict();
export const McpHttpServer = z
  .object({
    type: z.enum(['streamable-http', 'streamableHttp', 'http', 'sse']).optional(),
    url: z.url({ protocol: /^https?$/, error: 'The MCP server URL must be an http(s) URL' }).max(2000),
    headers: z.record(z.string().max(200), z.string().max(4000)).default({}),
  })
  .strict();
export const McpServerConfig = z.union([McpStdioServer, McpHttpServer]);
export type McpServerConfig = z.infer<typeof McpServerConfig>;

/** The config JSON of MCP clients: `{ "mcpServers": { "<name>": { command, args, env } | { url, headers } } }`, exactly one server. */
export const McpConfigDocument = z
  .object({ mcpServers: z.record(z.string().trim().min(1).max(50), McpServerConfig) })
  .refine((d) => Object.keys(d.mcpServers).length === 1, { message: 'Give exactly one server under mcpServers', path: ['mcpServers'] });
export type McpConfigDocument = z.infer<typeof McpConfigDocument>;

/**
 * Whether an MCP tool's server may run on this server: a stdio server only when the operator allows
 * its command (and its env and cwd pass). `reason` says what stops it: the command, an environment
 * variable, or a working directory.
 */
export const McpPolicy = z.object({ allowed: z.boolean(), reason: z.enum(['command', 'env', 'cwd']).nullable() });
export type McpPolicy = z.infer<typeof McpPolicy>;

const name = z.string().trim().min(1, REQUIRED).max(50, 'exceeds maximum length 50');
const intro = z.string().trim().max(500, 'exceeds maximum length 500');
export const DEFAULT_TOOL_ICON = { icon: 'wrench', iconColor: '#CCFBF1' } as const;

export const Tool = z
  .object({
    id: Id.meta({ column: false }),
    workspace_id: Id.meta({ column: false }),
    icon: AppIcon.meta({ label: 'fields.icon', column: { order: 0, width: 64 } }),
    name: z.string().meta({ label: 'fields.name', column: { order: 1, width: 200 } }),
    intro: z.string().meta({ label: 'fields.intro', column: { order: 2 } }),
    type: ToolType.meta({ label: 'fields.type', optionLabels: 'types', column: { order: 3, width: 110 } }),
    status: ToolStatus.meta({ label: 'fields.status', widget: 'status', optionLabels: 'statuses', tones: { published: 'success', draft: 'neutral' }, column: { order: 4, width: 110 } }),
    install_method: ToolInstallMethod.meta({ label: 'fields.installMethod', optionLabels: 'installMethods', column: { order: 5, width: 130 } }),
    function_count: z.number().int().meta({ label: 'fields.functionCount', column: { order: 6, width: 110, align: 'right' } }),
    reference_count: z.number().int().meta({ label: 'fields.referenceCount', column: { order: 7, width: 110, align: 'right' } }),
    auth: ToolAuth.meta({ column: false }),
    /** MCP tools: the server's config (name → server). */
    mcp_config: McpConfigDocument.nullable().meta({ column: false }),
    /** MCP tools: the server tools switched on (only those run). */
    mcp_enabled: z.array(z.string()).meta({ column: false }),
    /** MCP tools: whether the server may run here (null for other tools). */
    mcp_policy: McpPolicy.nullable().meta({ column: false }),
    workflow_app_id: Id.nullable().meta({ column: false }),
    published_version: z.number().int().meta({ column: false }),
    created_by: Id.meta({ column: false }),
    created_at: Timestamp.meta({ column: false }),
    updated_at: Timestamp.meta({ label: 'fields.updatedAt', widget: 'datetime', column: { order: 8, width: 170 } }),
  })
  .meta({ title: 'title' });
export type Tool = z.infer<typeof Tool>;

export const ToolListQuery = z.object({
  page: pageNumber,
  page_size: pageSize(TOOL_PAGE_MAX),
  name: z.string().trim().max(64).optional(),
  type: ToolType.optional(),
});
export type ToolListQuery = z.infer<typeof ToolListQuery>;

/** A custom tool made by hand (functions added after). */
export const ToolCreateBody = z
  .object({ ...noId, name, intro: intro.default(''), icon: AppIcon.optional(), auth: ToolAuth.default({ type: 'none' }) })
  .strict();
export type ToolCreateBody = z.input<typeof ToolCreateBody>;

export const ToolUpdateBody = z
  .object({ ...needsId, name: name.optional(), intro: intro.optional(), icon: AppIcon.optional(), auth: ToolAuth.optional(), mcp_config: McpConfigDocument.optional() })
  .strict();
export type ToolUpdateBody = z.input<typeof ToolUpdateBody>;

export const ToolParams = z.object({ tool_id: z.string().describe('Tool id') });
export const FunctionParams = ToolParams.extend({ function_id: z.string().describe('Function id') });
export const McpToolParams = ToolParams.extend({ name: z.string().min(1).max(200).describe('Tool name on the MCP server') });

/** Function names are what a model calls: letters, digits, _ and -, up to 64. */
export const FUNCTION_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;
const functionName = z.string().trim().min(1, REQUIRED).max(64, 'exceeds maximum length 64').regex(FUNCTION_NAME_PATTERN, 'field key may contain only English letters, digits and underscore');
const url = z
  .string()
  .trim()
  .min(1, REQUIRED)
  .max(2000)
  .regex(/^https?:\/\/\S+$/i, 'The URL must start with http:// or https://');

const params = paramTableSchema({ kind: 'params' });
const headers = paramTableSchema({ kind: 'headers' });
const response = paramTableSchema({ kind: 'response' });
const body = z.array(ParamRow);

/**
 * The body rows checked with the rules of the chosen subtype (spec 5); a `path` body's fields each
 * need their `{key}` in the URL's path (checked when the URL is in the same body: an update that
 * changes one of them alone is checked when it runs).
 */
function checkBody(v: { body?: unknown; body_subtype?: BodySubtypeT; url?: string }, ctx: z.RefinementCtx) {
  if (v.body === undefined) return;
  const r = paramTableSchema({ kind: 'body', subtype: v.body_subtype ?? 'json' }).safeParse(v.body);
  if (!r.success) for (const i of r.error.issues) ctx.addIssue({ code: 'custom', message: i.message, path: ['body', ...i.path] });
  else if (v.body_subtype === 'path' && v.url !== undefined) {
    const path = v.url.split(/[?#]/)[0];
    r.data.forEach((row, i) => {
      if (!path.includes(`{${row.param_key}}`)) ctx.addIssue({ code: 'custom', message: PARAM_MESSAGES.pathPlaceholder, path: ['body', i, 'param_key'] });
    });
  }
}

const functionFields = {
  name: functionName,
  description: z.string().trim().max(1000, 'exceeds maximum length 1000'),
  method: HttpMethod,
  url,
  auth: ToolAuth,
  params,
  headers,
  body,
  body_subtype: BodySubtype,
  response,
  enabled: z.boolean(),
};

export const ToolFunction = z.object({
  id: Id,
  tool_id: Id,
  name: z.string(),
  description: z.string(),
  method: HttpMethod,
  url: z.string(),
  auth: ToolAuth,
  params: z.array(ParamRow),
  headers: z.array(ParamRow),
  body: z.array(ParamRow),
  body_subtype: BodySubtype,
  response: z.array(ParamRow),
  enabled: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type ToolFunction = z.infer<typeof ToolFunction>;

export const FunctionCreateBody = z
  .object({
    ...noId,
    ...functionFields,
    description: functionFields.description.default(''),
    method: HttpMethod.default('GET'),
    /** Default: the tool's auth. */
    auth: ToolAuth.optional(),
    params: params.default([]),
    headers: headers.default([]),
    body: body.default([]),
    body_subtype: BodySubtype.default('json'),
    response: response.default([]),
    enabled: z.boolean().default(true),
  })
  .strict()
  .superRefine(checkBody);
export type FunctionCreateBody = z.input<typeof FunctionCreateBody>;

export const FunctionUpdateBody = z
  .object({
    ...needsId,
    name: functionName.optional(),
    description: functionFields.description.optional(),
    method: HttpMethod.optional(),
    url: url.optional(),
    auth: ToolAuth.optional(),
    params: params.optional(),
    headers: headers.optional(),
    body: body.optional(),
    body_subtype: BodySubtype.optional(),
    response: response.optional(),
    enabled: z.boolean().optional(),
  })
  .strict()
  .superRefine(checkBody);
export type FunctionUpdateBody = z.input<typeof FunctionUpdateBody>;

export const ToolDetail = Tool.extend({ functions: z.array(ToolFunction) });
export type ToolDetail = z.infer<typeof ToolDetail>;

/** Sample inputs by param_key (query, path and body rows; nested objects for json bodies). */
export const FunctionTestBody = z.object({ inputs: z.record(z.string(), z.unknown()).default({}) }).strict();
export type FunctionTestBody = z.input<typeof FunctionTestBody>;

export const FunctionTestResult = z.object({
  /** True when the request got an answer (any status). */
  ok: z.boolean(),
  request: z.object({ method: z.string(), url: z.string() }),
  status: z.number().int(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  elapsed_ms: z.number().int(),
  /** Why no answer came (blocked address, timeout, missing credential …). */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type FunctionTestResult = z.infer<typeof FunctionTestResult>;

export const OpenApiImportBody = z
  .object({
    /** The OpenAPI 3.x or Swagger 2.0 document, JSON or YAML. */
    document: z.string().min(1, REQUIRED).max(2_000_000, 'exceeds maximum length 2000000'),
    /** Default: the document's info.title. */
    name: name.optional(),
    intro: intro.optional(),
    icon: AppIcon.optional(),
    /** Used by the imported functions. */
    auth: ToolAuth.default({ type: 'none' }),
  })
  .strict();
export type OpenApiImportBody = z.input<typeof OpenApiImportBody>;

export const McpCreateBody = z
  .object({
    /** `{ "mcpServers": { "<name>": … } }`: the name becomes the tool's name. */
    config: McpConfigDocument,
    intro: intro.default(''),
    icon: AppIcon.optional(),
  })
  .strict();
export type McpCreateBody = z.input<typeof McpCreateBody>;

/** A tool an MCP server lists, with whether it is switched on here. */
export const McpToolItem = z.object({
  name: z.string(),
  description: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
  enabled: z.boolean(),
});
export type McpToolItem = z.infer<typeof McpToolItem>;

export const McpToolsAnswer = z.object({ tools: z.array(McpToolItem) });
export type McpToolsAnswer = z.infer<typeof McpToolsAnswer>;

export const McpToggleBody = z.object({ enabled: z.boolean() }).strict();

export const WorkflowToolCreateBody = z
  .object({ app_id: Id, name: name.optional(), intro: intro.optional(), icon: AppIcon.optional() })
  .strict();
export type WorkflowToolCreateBody = z.input<typeof WorkflowToolCreateBody>;

export const PublishBody = z.object({ note: z.string().trim().max(500, 'exceeds maximum length 500').default('') }).strict();
export type PublishBody = z.input<typeof PublishBody>;

export const ToolVersion = z.object({
  id: Id,
  tool_id: Id,
  version: z.number().int(),
  note: z.string(),
  created_by: Id,
  created_at: Timestamp,
});
export type ToolVersion = z.infer<typeof ToolVersion>;

/** The built-in (inner) tools every workspace has: a tool node names them with tool id `builtin`. */
export const BuiltinTool = z.object({ name: z.string(), description: z.string(), parameters: z.record(z.string(), z.unknown()) });
export const BuiltinToolsAnswer = z.object({ provider: z.literal('builtin'), tools: z.array(BuiltinTool) });
export type BuiltinToolsAnswer = z.infer<typeof BuiltinToolsAnswer>;
