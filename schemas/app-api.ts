import { z } from 'zod';
import { Id, Timestamp } from './common';
import { LogPeriod } from './run-api';

/**
 * Apps as services (console side): an app's API keys, its MCP exposure and its overview figures.
 * The public API itself (`/v1/...`, Dify's service-API paths and payloads, `/v1/chat/completions`,
 * the MCP endpoint) is authenticated by an app key and documented under its own security scheme;
 * its shapes are in ./public-api.ts.
 *
 * Keys: `wk-` followed by 40 url-safe random characters; only a hash is stored. The secret is in the
 * create answer only; lists show `prefix…last4`. Every member of the app's space reads the list; creating
 * and revoking are for the space's owner and admins (Weft's choice: a key runs the app as a service).
 */

export const API_KEY_NAME_MAX = 50;
/** Live keys an app may have. */
export const API_KEYS_MAX = 20;

export const ApiKey = z.object({
  id: Id,
  name: z.string(),
  /** `wk-abcd…wxyz`: enough to recognise a key, never enough to use it. */
  masked: z.string(),
  created_by_name: z.string(),
  created_at: Timestamp,
  last_used_at: Timestamp.nullable(),
  /** Requests a minute this key may make (null: the server's default). */
  rate_limit_per_minute: z.number().int().nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** POST /console/apps/{app_id}/api-keys: the secret comes back once, here. */
export const ApiKeyCreateBody = z
  .object({
    name: z.string().trim().min(1).max(API_KEY_NAME_MAX),
    rate_limit_per_minute: z.number().int().min(1).max(100_000).nullable().default(null),
  })
  .strict();
export type ApiKeyCreateBody = z.infer<typeof ApiKeyCreateBody>;
export const ApiKeyCreated = ApiKey.extend({ secret: z.string() });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreated>;

export const ApiKeyParams = z.object({ app_id: z.string().max(64), key_id: z.string().max(64) });

// ------------------------------------------------------------------ overview (spec 9 log periods)

/** GET /console/apps/{app_id}/overview?period=: figures per day over the period, aggregated in SQL. */
export const OverviewQuery = z.object({
  period: LogPeriod.default('7d'),
  /** IANA time zone the days are cut in (default: UTC). */
  tz: z.string().max(64).optional(),
});
export type OverviewQuery = z.infer<typeof OverviewQuery>;

export const OverviewDay = z.object({
  /** YYYY-MM-DD in the asked time zone. */
  date: z.string(),
  /** Runs (workflow) or messages (chat apps). */
  runs: z.number().int(),
  conversations: z.number().int(),
  messages: z.number().int(),
  /** Distinct end users (runs' creators, API `user` values). */
  active_users: z.number().int(),
  tokens: z.number().int(),
  avg_latency_ms: z.number(),
  p95_latency_ms: z.number(),
  /** Failed / all, 0…1. */
  error_rate: z.number(),
});
export type OverviewDay = z.infer<typeof OverviewDay>;

export const Overview = z.object({
  period: LogPeriod,
  days: z.array(OverviewDay),
  totals: OverviewDay.omit({ date: true }),
});
export type Overview = z.infer<typeof Overview>;

// ------------------------------------------------------------------ MCP exposure of a space's workflows

/**
 * A project space's published workflow apps exposed as MCP tools (Streamable HTTP at `/v1/mcp/{workspace_id}`,
 * authenticated by a key of the space: same format and storage as app keys, managed with the exposure). The owner chooses which apps; each becomes one tool named after
 * the app, its input schema built from the start form.
 */
export const McpExposure = z.object({
  enabled: z.boolean(),
  /** The workflow apps offered, by id. */
  app_ids: z.array(Id),
  endpoint: z.string(),
});
export type McpExposure = z.infer<typeof McpExposure>;
export const McpExposureBody = z.object({ enabled: z.boolean(), app_ids: z.array(Id).max(200) }).strict();
