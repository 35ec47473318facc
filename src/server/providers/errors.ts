import { APICallError } from 'ai';
import type { ModelErrorCode } from '../../../schemas/model';
import { ErrorCode } from '../../../schemas/errors';
import { OutboundRefusedError, outboundErrorIn } from '../security/outbound-policy';

/** A failed model call, with a stable code (schemas/model.ts MODEL_ERROR_CODES) and the provider's words. */
export class ModelError extends Error {
  constructor(
    readonly code: ModelErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

function causeCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur && typeof cur === 'object'; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The provider's own message out of an error body (`{error:{message}}` in both protocols). */
function bodyMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const j = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    if (typeof j.error === 'string') return j.error;
    return j.error?.message ?? j.message;
  } catch {
    return body.slice(0, 300);
  }
}

/**
 * Maps whatever the SDK or the network threw to a ModelError: HTTP status first (401/403 key,
 * 404 model, 429 rate limit, other 4xx request), then connection failures and timeouts.
 */
export function toModelError(e: unknown): ModelError {
  if (e instanceof ModelError) return e;
  // The outbound policy: refused before any request, or the one "could not connect" of an allowed host.
  const outbound = outboundErrorIn(e) ?? outboundErrorIn((e as { lastError?: unknown })?.lastError);
  if (outbound instanceof OutboundRefusedError) return new ModelError('not_allowed', `The provider's base URL: ${outbound.message}`);
  if (outbound) return new ModelError('unreachable', `The provider cannot be reached: ${outbound.message}; check the base URL`);
  // streamText wraps errors of retried calls; the last attempt's error says what happened.
  const last = (e as { lastError?: unknown })?.lastError;
  if (last) return toModelError(last);
  if (APICallError.isInstance(e)) {
    const s = e.statusCode;
    const msg = bodyMessage(e.responseBody) ?? e.message;
    if (s === 401 || s === 403) return new ModelError('unauthorized', `The provider refused the key: ${msg}`, s);
    if (s === 404) return new ModelError('model_not_found', `The provider does not know this model or URL: ${msg}`, s);
    if (s === 429) return new ModelError('rate_limited', `The provider's rate limit or quota is exhausted: ${msg}`, s);
    if (s !== undefined && s >= 400 && s < 500) return new ModelError('bad_request', `The provider rejected the request: ${msg}`, s);
    if (s !== undefined) return new ModelError('provider_error', `The provider failed (HTTP ${s}): ${msg}`, s);
  }
  const name = (e as { name?: string })?.name;
  if (name === 'TimeoutError') return new ModelError('timeout', 'The provider did not answer in time');
  if (name === 'AbortError') return new ModelError('cancelled', 'The call was stopped');
  const code = causeCode(e);
  // Socket errors say nothing to the caller about why (no port-scanner answers); the policy's fetch
  // wraps its own, these are what other paths may still throw.
  if (code && ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT'].includes(code)) {
    return new ModelError('unreachable', 'The provider cannot be reached; check the base URL');
  }
  const message = e instanceof Error ? e.message : String(e);
  if (/fetch failed|Cannot connect/i.test(message)) return new ModelError('unreachable', 'The provider cannot be reached; check the base URL');
  return new ModelError('provider_error', message);
}

/** The node error code of a model failure: `MODEL-<code>`, the network policy's own for a refusal. */
export const modelNodeCode = (e: ModelError) => (e.code === 'not_allowed' ? ErrorCode.NETWORK_NOT_ALLOWED : `MODEL-${e.code}`);
