/**
 * Rerank models: the tenant's `rerank` model (model management, model type 'rerank') called over the
 * rerank wire protocol shared by Jina, Cohere, vLLM, Xinference and most OpenAI-compatible servers:
 *
 *   POST {base_url}/rerank   { model, query, documents: string[], top_n }
 *   → { results: [{ index, relevance_score }] }
 *
 * The credentials (base URL, key) are the provider's, resolved and decrypted here like ModelService
 * does for chat and embeddings; the model must exist (predefined or custom) and be enabled.
 */
import type { ServerContext } from '../context';
import { badRequest } from '../errors';
import { ModelError, toModelError } from '../providers/errors';
import { modelFetch } from '../providers/model-service';
import { providerOf } from '../providers/catalogue';
import { getDefault, listModels, providerCredentials } from '../services/models';

type Ctx = Pick<ServerContext, 'db' | 'secretKey' | 'outbound'>;

export interface RerankModelRef {
  provider: string;
  model: string;
}

export interface RerankScore {
  /** Index into the documents sent. */
  index: number;
  /** Relevance 0..1 as the model gives it (clamped). */
  score: number;
}

/** How long one rerank request may take. */
export const RERANK_TIMEOUT_MS = 30_000;

/**
 * The rerank model to use: `ref` when given (a node's choice), else the tenant's default rerank
 * model. No model → VALIDATION-1000 with a message that says where to set one.
 */
export async function resolveRerankModel(ctx: Ctx, tenantId: string, ref?: RerankModelRef | null): Promise<RerankModelRef> {
  if (ref?.provider && ref.model) return { provider: ref.provider, model: ref.model };
  const d = await getDefault(ctx, tenantId, 'rerank');
  if (!d) throw badRequest('Rerank is on but this tenant has no rerank model: add one in model management and make it the default rerank model, or turn rerank off');
  return { provider: d.provider, model: d.model };
}

async function endpointOf(ctx: Ctx, tenantId: string, ref: RerankModelRef): Promise<{ url: string; apiKey: string }> {
  const p = providerOf(ref.provider);
  if (!p) throw new ModelError('not_configured', `Unknown model provider '${ref.provider}'`);
  if (p.protocol === 'anthropic') throw new ModelError('unsupported', `${p.label} serves no rerank models`);
  const creds = await providerCredentials(ctx, tenantId, ref.provider);
  if (!creds) throw new ModelError('not_configured', `The model provider '${p.label}' has no credentials in this tenant`);
  const m = (await listModels(ctx, tenantId, ref.provider, 'rerank')).find((x) => x.model === ref.model);
  if (!m) throw new ModelError('model_not_found', `The rerank model '${ref.model}' is not configured for '${p.label}'`);
  if (!m.enabled) throw new ModelError('model_disabled', `The rerank model '${ref.model}' is disabled`);
  if (!creds.base_url) throw new ModelError('not_configured', `The model provider '${p.label}' has no base URL`);
  return { url: `${creds.base_url.replace(/\/+$/, '')}/rerank`, apiKey: creds.api_key };
}

function providerMessage(text: string): string {
  try {
    const j = JSON.parse(text) as { error?: { message?: string } | string; message?: string; detail?: unknown };
    if (typeof j.error === 'string') return j.error;
    return j.error?.message ?? j.message ?? (typeof j.detail === 'string' ? j.detail : text.slice(0, 300));
  } catch {
    return text.slice(0, 300);
  }
}

/**
 * Scores `documents` against `query` with the rerank model; answers the scores best first (at most
 * `topN`). Errors are ModelError (unauthorized, model_not_found, provider_error, timeout...).
 */
export async function rerank(
  ctx: Ctx,
  tenantId: string,
  ref: RerankModelRef,
  query: string,
  documents: string[],
  opts: { topN?: number; signal?: AbortSignal } = {},
): Promise<RerankScore[]> {
  if (!documents.length) return [];
  const { url, apiKey } = await endpointOf(ctx, tenantId, ref);
  const timeout = AbortSignal.timeout(RERANK_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let res: Response;
  try {
    // The providers' fetch: the base URL's host admitted by the outbound policy.
    res = await modelFetch(ctx.outbound)(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      body: JSON.stringify({ model: ref.model, query, documents, top_n: Math.min(opts.topN ?? documents.length, documents.length), return_documents: false }),
      signal,
    });
  } catch (e) {
    if (opts.signal?.aborted) throw new ModelError('cancelled', 'The call was stopped');
    if (timeout.aborted) throw new ModelError('timeout', 'The rerank model did not answer in time');
    throw toModelError(e);
  }
  const text = await res.text();
  if (!res.ok) {
    const msg = providerMessage(text);
    const s = res.status;
    if (s === 401 || s === 403) throw new ModelError('unauthorized', `The provider refused the key: ${msg}`, s);
    if (s === 404) throw new ModelError('model_not_found', `The provider does not know this rerank model or URL: ${msg}`, s);
    if (s === 429) throw new ModelError('rate_limited', `The provider's rate limit or quota is exhausted: ${msg}`, s);
    if (s >= 400 && s < 500) throw new ModelError('bad_request', `The provider rejected the rerank request: ${msg}`, s);
    throw new ModelError('provider_error', `The rerank model failed (HTTP ${s}): ${msg}`, s);
  }
  let body: { results?: unknown; data?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new ModelError('provider_error', 'The rerank model answered something that is not JSON');
  }
  const list = Array.isArray(body.results) ? body.results : Array.isArray(body.data) ? body.data : null;
  if (!list) throw new ModelError('provider_error', 'The rerank answer has no results list');
  const out: RerankScore[] = [];
  const seen = new Set<number>();
  for (const r of list as { index?: unknown; relevance_score?: unknown; score?: unknown }[]) {
    const index = Number(r?.index);
    const raw = Number(r?.relevance_score ?? r?.score);
    if (!Number.isInteger(index) || index < 0 || index >= documents.length || !Number.isFinite(raw) || seen.has(index)) continue;
    seen.add(index);
    out.push({ index, score: Math.max(0, Math.min(1, raw)) });
  }
  return out.sort((a, b) => b.score - a.score).slice(0, opts.topN ?? documents.length);
}
