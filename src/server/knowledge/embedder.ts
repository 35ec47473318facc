/**
 * The embedder of a knowledge base: its text-embedding model through ModelService when it has one,
 * else the built-in hashed n-gram embedding. A knowledge base keeps the model it was created with
 * (datasets.embedding), so its vectors stay comparable; `embedderForTenant` picks that model from the
 * tenant's default text-embedding model when a knowledge base is created.
 */
import type { ServerContext } from '../context';
import { ModelService } from '../providers/model-service';
import { getDefault } from '../services/models';
import { BUILTIN_EMBEDDING_DIM, embedBuiltin } from './embed-builtin';
import type { Embedder } from './types';

/** Texts per provider request: small enough for every OpenAI-compatible server's batch limit. */
export const EMBED_BATCH_SIZE = 64;

export type EmbeddingModelRef = { provider: string; model: string };

/** An embedder together with the model reference to store on a new knowledge base (null: builtin). */
export interface TenantEmbedder extends Embedder {
  readonly embedding: EmbeddingModelRef | null;
}

type Ctx = Pick<ServerContext, 'db' | 'secretKey' | 'outbound'>;

/** The built-in embedder (256 dimensions, no network). */
export const builtinEmbedder: Embedder = {
  id: 'builtin',
  dim: BUILTIN_EMBEDDING_DIM,
  embed: async (texts, signal) => {
    signal?.throwIfAborted();
    return embedBuiltin(texts);
  },
};

function providerEmbedder(ctx: Ctx, tenantId: string, ref: EmbeddingModelRef): Embedder {
  const svc = new ModelService(ctx);
  let dim: number | null = null;
  return {
    id: `${ref.provider}/${ref.model}`,
    get dim() {
      return dim;
    },
    async embed(texts, signal) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += EMBED_BATCH_SIZE) {
        signal?.throwIfAborted();
        // Providers refuse empty inputs; a blank text embeds as a single space.
        const batch = texts.slice(i, i + EMBED_BATCH_SIZE).map((t) => (t.trim() ? t : ' '));
        const r = await svc.embed({ tenantId, provider: ref.provider, model: ref.model, texts: batch, signal });
        if (r.embeddings.length !== batch.length) throw new Error(`The embedding model ${ref.provider}/${ref.model} returned ${r.embeddings.length} vectors for ${batch.length} texts`);
        for (const v of r.embeddings) {
          if (dim === null) dim = v.length;
          else if (v.length !== dim) throw new Error(`The embedding model ${ref.provider}/${ref.model} returned vectors of ${v.length} dimensions, expected ${dim}`);
          out.push(v);
        }
      }
      return out;
    },
  };
}

/** The embedder of a knowledge base: its model through ModelService, or the builtin one when it has none. */
export function createEmbedder(ctx: Ctx, tenantId: string, dataset: { embedding: EmbeddingModelRef | null }): Embedder {
  return dataset.embedding ? providerEmbedder(ctx, tenantId, dataset.embedding) : builtinEmbedder;
}

/**
 * The embedder for a new knowledge base of the tenant: its default text-embedding model
 * (tenant_default_models) or the builtin one. `embedding` is what to store in datasets.embedding.
 */
export async function embedderForTenant(ctx: Ctx, tenantId: string): Promise<TenantEmbedder> {
  const d = await getDefault(ctx, tenantId, 'text-embedding');
  const embedding = d ? { provider: d.provider, model: d.model } : null;
  const inner = createEmbedder(ctx, tenantId, { embedding });
  return {
    embedding,
    id: inner.id,
    get dim() {
      return inner.dim;
    },
    embed: (texts, signal) => inner.embed(texts, signal),
  };
}
