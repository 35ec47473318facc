import { NodeExecutionError } from '../../plugin-sdk/executor';
import type { ServerContext } from '../context';
import { createGuardedHttpClient, type GuardedRequest } from '../http';
import { AppError } from '../errors';
import type { ParamRow } from '../../../schemas/parameter';
import type { FunctionTestResult, ToolFunction } from '../../../schemas/tool';
import { credentialSecret, type WorkspaceScope } from './rows';

/**
 * One call of a custom tool's HTTP function: inputs by param_key go to the path (`{key}` in the
 * URL), the query, the headers' values may hold `{key}`, and the body in its subtype (query_string
 * and path bodies go in the URL instead, for every method); the auth's
 * secret comes from the workspace's credential. Through the guarded client only (private addresses
 * refused unless WEFT_HTTP_ALLOW_PRIVATE).
 */

export const TOOL_CALL_ERRORS = {
  MISSING_INPUT: 'TOOL-INPUT-MISSING',
  CREDENTIAL: 'TOOL-CREDENTIAL-MISSING',
  /** A `path` body field whose `{key}` is not in the URL's path. */
  PATH_PLACEHOLDER: 'TOOL-PATH-PLACEHOLDER',
} as const;

const fail = (code: string, message: string) => new NodeExecutionError(code, message);

function str(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
}

/** A value as the row's type says (json bodies keep numbers and booleans typed). */
function typed(row: ParamRow, v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (row.is_array) {
    // Text for an array row (a test form, a tool node's text param): a JSON array, else one item.
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      parsed = undefined;
    }
    const item: ParamRow = { ...row, is_array: false };
    return Array.isArray(parsed) ? parsed.map((x) => typed(item, x)) : [typed(item, v)];
  }
  switch (row.data_type) {
    case 'integer':
    case 'long':
    case 'decimal':
    case 'timestamp':
      return v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
    case 'boolean':
      return v === 'true' ? true : v === 'false' ? false : v;
    case 'object':
      try {
        return JSON.parse(v);
      } catch {
        return v;
      }
    default:
      return v;
  }
}

/** The value of a row: the input, else its default; a required row without either fails. */
function valueOf(row: ParamRow, inputs: Record<string, unknown>): unknown {
  const given = inputs[row.param_key];
  if (given !== undefined && given !== null && given !== '') return given;
  if (row.default_value !== undefined && row.default_value !== '') return row.default_value;
  if (row.is_not_null) throw fail(TOOL_CALL_ERRORS.MISSING_INPUT, `The parameter "${row.param_key}" is required`);
  return undefined;
}

/** A json body from its rows: object rows take their children from a nested input object. */
function jsonFrom(rows: readonly ParamRow[], inputs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const row of rows) {
    if (row.data_type === 'object' && row.children?.length && !row.is_array) {
      const nested = inputs[row.param_key];
      const inner = nested && typeof nested === 'object' && !Array.isArray(nested) ? (nested as Record<string, unknown>) : typeof nested === 'string' ? (typed(row, nested) as Record<string, unknown>) : inputs;
      out[row.param_key] = jsonFrom(row.children, inner && typeof inner === 'object' ? inner : {});
      continue;
    }
    const v = valueOf(row, inputs);
    if (v !== undefined) out[row.param_key] = typed(row, v);
  }
  return out;
}

/**
 * The body rows of a `query_string` body added to `query`, or of a `path` body put into the URL's
 * `{key}` placeholders (encoded as one path segment); the URL with them.
 */
function fieldsInUrl(fn: ToolFunction, url: string, query: Record<string, string>, inputs: Record<string, unknown>): string {
  let out = url;
  for (const row of fn.body) {
    const v = valueOf(row, inputs);
    if (fn.body_subtype === 'query_string') {
      if (v !== undefined) query[row.param_key] = str(v);
      continue;
    }
    const placeholder = `{${row.param_key}}`;
    if (!out.split(/[?#]/)[0].includes(placeholder)) throw fail(TOOL_CALL_ERRORS.PATH_PLACEHOLDER, `The URL path has no ${placeholder} for the body field "${row.param_key}"`);
    if (v === undefined) throw fail(TOOL_CALL_ERRORS.MISSING_INPUT, `The path field "${row.param_key}" has no value`);
    out = out.split(placeholder).join(encodeURIComponent(str(v)));
  }
  return out;
}

export async function buildRequest(ctx: ServerContext, w: WorkspaceScope, fn: ToolFunction, inputs: Record<string, unknown>): Promise<GuardedRequest> {
  let url = fn.url;
  const query: Record<string, string> = {};
  for (const row of fn.params) {
    const v = valueOf(row, inputs);
    if (row.request_type === 'query_path') {
      if (v === undefined) throw fail(TOOL_CALL_ERRORS.MISSING_INPUT, `The path parameter "${row.param_key}" has no value`);
      url = url.split(`{${row.param_key}}`).join(encodeURIComponent(str(v)));
    } else if (v !== undefined) query[row.param_key] = str(v);
  }
  const headers: Record<string, string> = {};
  for (const row of fn.headers) headers[row.param_key] = (row.param_value ?? '').replace(/\{(\w+)\}/g, (m, k: string) => (inputs[k] !== undefined ? str(inputs[k]) : m));
  const req: GuardedRequest = { method: fn.method, url, headers, query };
  if (fn.body_subtype === 'query_string' || fn.body_subtype === 'path') {
    // Spec 9's URL body types: the fields go in the URL for every method, and no body is sent.
    req.url = url = fieldsInUrl(fn, url, query, inputs);
  } else if (fn.method !== 'GET' && fn.method !== 'HEAD' && fn.body.length > 0) {
    if (fn.body_subtype === 'json') {
      // The spec's json body is one object row `data` whose children are the fields: send the fields.
      const only = fn.body.length === 1 && fn.body[0].data_type === 'object' && fn.body[0].param_key === 'data' ? fn.body[0] : undefined;
      req.json = only ? jsonFrom(only.children ?? [], (inputs.data as Record<string, unknown>) ?? inputs) : jsonFrom(fn.body, inputs);
    } else {
      const fields: Record<string, string> = {};
      for (const row of fn.body) {
        const v = valueOf(row, inputs);
        if (v !== undefined) fields[row.param_key] = str(v);
      }
      if (fn.body_subtype === 'form-data') req.multipart = Object.entries(fields).map(([name, value]) => ({ name, value }));
      else req.form = fields;
    }
  }
  const auth = fn.auth;
  if (auth.type !== 'none') {
    let secret: { ak: string; sk: string };
    try {
      secret = await credentialSecret(ctx, w, auth.credential_id);
    } catch (e) {
      if (e instanceof AppError) throw fail(TOOL_CALL_ERRORS.CREDENTIAL, 'The credential of this function no longer exists in the project space');
      throw e;
    }
    if (auth.type === 'bearer') headers.authorization = `Bearer ${secret.sk}`;
    else if (auth.type === 'basic') headers.authorization = `Basic ${Buffer.from(`${secret.ak}:${secret.sk}`).toString('base64')}`;
    else if (auth.location === 'header') headers[auth.key] = secret.sk;
    else query[auth.key] = secret.sk;
  }
  return req;
}

/** Runs a function and answers what happened, failures included (the test panel and the runtime read it). */
export async function runFunction(
  ctx: ServerContext,
  w: WorkspaceScope,
  fn: ToolFunction,
  inputs: Record<string, unknown>,
  opts: { signal: AbortSignal },
): Promise<FunctionTestResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let shown = { method: fn.method, url: fn.url };
  try {
    const req = await buildRequest(ctx, w, fn, inputs);
    const u = new URL(req.url);
    // The shown URL never carries a secret put in the query.
    for (const [k, v] of Object.entries(req.query ?? {})) u.searchParams.append(k, fn.auth.type === 'api_key' && fn.auth.location === 'query' && k === fn.auth.key ? '******' : String(v));
    shown = { method: fn.method, url: u.toString() };
    const client = createGuardedHttpClient({ policy: ctx.outbound });
    const res = await client.request({ ...req, signal: opts.signal, timeoutMs: 60_000, maxResponseBytes: 5 * 1024 * 1024 });
    return { ok: true, request: shown, status: res.status, headers: res.headers, body: res.body, elapsed_ms: elapsed(), error: null };
  } catch (e) {
    if (e instanceof NodeExecutionError) return { ok: false, request: shown, status: 0, headers: {}, body: '', elapsed_ms: elapsed(), error: { code: e.code, message: e.message } };
    if (e instanceof TypeError) return { ok: false, request: shown, status: 0, headers: {}, body: '', elapsed_ms: elapsed(), error: { code: 'HTTP-URL-INVALID', message: e.message } };
    throw e;
  }
}
