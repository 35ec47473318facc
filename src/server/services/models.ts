import { cacheChanged, onCacheChange } from '../cache-notices';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Caller, ServerContext } from '../context';
import { customModels, modelProviderCredentials, modelSettings, tenantDefaultModels } from '../db/schema';
import { badRequest, exists, notFoundOrForeign } from '../errors';
import { isUniqueViolation } from './workspace-resources';
import { decryptSecret, encryptSecret } from '../security/secrets';
import { credentialFieldsOf, CATALOGUE, providerOf, type CatalogueProvider } from '../providers/catalogue';
import {
  credentialSchemaOf,
  maskApiKey,
  MODEL_TYPES,
  type AvailableProvider,
  type CustomModelBody,
  type DefaultModel,
  type Model,
  type ModelFeature,
  type ModelInfo,
  type ModelProvider,
  type ModelType,
  type ProviderCredentials,
  type ProviderCredentialsOut,
} from '../../../schemas/model';

/**
 * A tenant's model configuration (spec 7.4 models): provider credentials (the key encrypted,
 * answered masked), enabled and custom models, and the default model of each type. Every query is
 * scoped by the caller's tenant.
 */

type Ctx = Pick<ServerContext, 'db' | 'secretKey'>;
type CredRow = typeof modelProviderCredentials.$inferSelect;

const keyAad = (id: string) => `model_provider.api_key:${id}`;

/** The catalogue entry, or VALIDATION-1000 for an unknown provider. */
export function catalogueEntry(provider: string): CatalogueProvider {
  const p = providerOf(provider);
  if (!p) throw notFoundOrForeign('Model provider', provider);
  return p;
}

async function credRow(ctx: Ctx, tenantId: string, provider: string): Promise<CredRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(modelProviderCredentials)
    .where(and(eq(modelProviderCredentials.tenantId, tenantId), eq(modelProviderCredentials.provider, provider)));
  return row;
}

function plainOf(ctx: Ctx, p: CatalogueProvider, row: CredRow): Required<ProviderCredentials> {
  return { base_url: row.config.base_url || p.default_base_url, api_key: decryptSecret(ctx.secretKey, row.secretEnc, keyAad(row.id)) };
}

/** Plain credentials for a call (server side only), or undefined when the tenant has none. */
/**
 * Bumped by every write to a tenant's providers, model switches and custom models, so caches of
 * resolved models (ModelService) drop what they hold at once, in every process on the database
 * (../cache-notices.ts, key: the tenant; '' for all).
 */
const generations = new Map<string, number>();
let everyTenant = 0;
export const modelsGeneration = (tenantId: string) => everyTenant + (generations.get(tenantId) ?? 0);
onCacheChange('models', (tenantId) => (tenantId ? generations.set(tenantId, (generations.get(tenantId) ?? 0) + 1) : everyTenant++));
const modelsChanged = (tenantId: string) => cacheChanged('models', tenantId);

export async function providerCredentials(ctx: Ctx, tenantId: string, provider: string): Promise<Required<ProviderCredentials> | undefined> {
  const p = catalogueEntry(provider);
  const row = await credRow(ctx, tenantId, provider);
  return row && plainOf(ctx, p, row);
}

export async function listProviders(ctx: Ctx, tenantId: string): Promise<ModelProvider[]> {
  const rows = await ctx.db.select({ provider: modelProviderCredentials.provider }).from(modelProviderCredentials).where(eq(modelProviderCredentials.tenantId, tenantId));
  const configured = new Set(rows.map((r) => r.provider));
  return CATALOGUE.map((p) => ({
    provider: p.provider,
    label: p.label,
    description: p.description,
    protocol: p.protocol,
    supported_model_types: p.supported_model_types,
    credential_fields: credentialFieldsOf(p),
    default_base_url: p.default_base_url,
    configured: configured.has(p.provider),
  }));
}

export async function getCredentials(ctx: Ctx, tenantId: string, provider: string): Promise<ProviderCredentialsOut> {
  const p = catalogueEntry(provider);
  const row = await credRow(ctx, tenantId, provider);
  if (!row) return { provider, configured: false, credentials: null, updated_at: null };
  const plain = plainOf(ctx, p, row);
  return { provider, configured: true, credentials: { base_url: plain.base_url, api_key: maskApiKey(plain.api_key) }, updated_at: row.updatedAt.toISOString() };
}

/**
 * Checks a credential form against the provider's schema. A key equal to the stored key's masked
 * form (or left out) means "keep the stored key", so the browser never needs the plain key.
 */
export async function resolveCredentialInput(ctx: Ctx, tenantId: string, provider: string, input: Record<string, string> | undefined): Promise<Required<ProviderCredentials>> {
  const p = catalogueEntry(provider);
  const row = await credRow(ctx, tenantId, provider);
  const stored = row && plainOf(ctx, p, row);
  const raw = { ...(input ?? {}) };
  if (stored && (raw.api_key === undefined || raw.api_key === maskApiKey(stored.api_key))) raw.api_key = stored.api_key;
  if (!input && stored) raw.base_url = stored.base_url;
  if (!raw.base_url) {
    if (!p.default_base_url) throw badRequest('Parameter error: credentials.base_url This form field is required!', [{ path: 'credentials.base_url', message: 'This form field is required!' }]);
    delete raw.base_url;
  }
  const parsed = credentialSchemaOf(p.protocol).safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: `credentials.${i.path.join('.')}`, message: i.message }));
    throw badRequest(`Parameter error: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`, issues);
  }
  return { base_url: parsed.data.base_url || p.default_base_url, api_key: parsed.data.api_key };
}

async function saveCredentialsNow(ctx: Ctx, caller: Caller, provider: string, input: Record<string, string>): Promise<ProviderCredentialsOut> {
  const p = catalogueEntry(provider);
  const creds = await resolveCredentialInput(ctx, caller.tenantId, provider, input);
  // Keep an empty base_url when it is the catalogue default, so a changed default follows.
  const config = { base_url: creds.base_url === p.default_base_url ? '' : creds.base_url };
  const row = await credRow(ctx, caller.tenantId, provider);
  if (row) {
    await ctx.db
      .update(modelProviderCredentials)
      .set({ config, secretEnc: encryptSecret(ctx.secretKey, creds.api_key, keyAad(row.id)), updatedBy: caller.userId, updatedAt: new Date() })
      .where(eq(modelProviderCredentials.id, row.id));
  } else {
    const id = randomUUID();
    await ctx.db.insert(modelProviderCredentials).values({
      id,
      tenantId: caller.tenantId,
      provider,
      config,
      secretEnc: encryptSecret(ctx.secretKey, creds.api_key, keyAad(id)),
      updatedBy: caller.userId,
    });
  }
  return getCredentials(ctx, caller.tenantId, provider);
}

/** Removes the credentials; defaults that pointed at this provider go too (they could not run). */
async function deleteCredentialsNow(ctx: Ctx, tenantId: string, provider: string): Promise<void> {
  catalogueEntry(provider);
  const row = await credRow(ctx, tenantId, provider);
  if (!row) throw notFoundOrForeign('Model provider credentials', provider);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(modelProviderCredentials).where(eq(modelProviderCredentials.id, row.id));
    await tx.delete(tenantDefaultModels).where(and(eq(tenantDefaultModels.tenantId, tenantId), eq(tenantDefaultModels.provider, provider)));
  });
}

// ------------------------------------------------------------------------------------------------
// Models

type CustomRow = typeof customModels.$inferSelect;
const customInfo = (r: CustomRow): ModelInfo => ({
  model: r.model,
  label: r.label || r.model,
  model_type: r.modelType as ModelType,
  features: r.features as ModelFeature[],
  context_size: r.contextSize,
  max_output_tokens: r.maxOutputTokens,
  fetch_from: 'custom',
});

/** Every model of a provider in the tenant (predefined, then custom), with its enabled flag. */
export async function listModels(ctx: Ctx, tenantId: string, provider: string, modelType?: ModelType): Promise<Model[]> {
  const p = catalogueEntry(provider);
  const customs = await ctx.db.select().from(customModels).where(and(eq(customModels.tenantId, tenantId), eq(customModels.provider, provider)));
  const settings = await ctx.db.select().from(modelSettings).where(and(eq(modelSettings.tenantId, tenantId), eq(modelSettings.provider, provider)));
  const off = new Set(settings.filter((s) => !s.enabled).map((s) => `${s.modelType}\n${s.model}`));
  const customKeys = new Set(customs.map((c) => `${c.modelType}\n${c.model}`));
  // A custom model of the same name and type replaces the predefined one (the admin knows better).
  const all = [...p.models.filter((m) => !customKeys.has(`${m.model_type}\n${m.model}`)), ...customs.map(customInfo)];
  return all
    .filter((m) => !modelType || m.model_type === modelType)
    .map((m) => ({ ...m, enabled: !off.has(`${m.model_type}\n${m.model}`) }));
}

/**
 * How the credentials test tries a model named without a type: as the provider's model of that name
 * is (predefined or custom; the first listed when several types share the name), else as an llm.
 */
export async function testTypeOf(ctx: Ctx, tenantId: string, provider: string, model: string): Promise<'llm' | 'text-embedding' | 'tts' | 'speech2text'> {
  const hit = (await listModels(ctx, tenantId, provider)).find((m) => m.model === model);
  const t = hit?.model_type;
  return t === 'text-embedding' || t === 'tts' || t === 'speech2text' ? t : 'llm';
}

/** A model of the provider (any enabled state), or VALIDATION-1000. */
export async function modelOf(ctx: Ctx, tenantId: string, provider: string, model: string, modelType: ModelType): Promise<Model> {
  const m = (await listModels(ctx, tenantId, provider, modelType)).find((x) => x.model === model);
  if (!m) throw notFoundOrForeign('Model', model);
  return m;
}

/** Switches a model on or off (off: a default that named it goes too), in one transaction; answers the model as switched. */
async function setModelEnabledNow(ctx: Ctx, tenantId: string, provider: string, model: string, modelType: ModelType, enabled: boolean): Promise<Model> {
  const found = await modelOf(ctx, tenantId, provider, model, modelType);
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(modelSettings)
      .values({ tenantId, provider, modelType, model, enabled })
      .onConflictDoUpdate({ target: [modelSettings.tenantId, modelSettings.provider, modelSettings.modelType, modelSettings.model], set: { enabled, updatedAt: new Date() } });
    if (!enabled) {
      await tx
        .delete(tenantDefaultModels)
        .where(and(eq(tenantDefaultModels.tenantId, tenantId), eq(tenantDefaultModels.provider, provider), eq(tenantDefaultModels.model, model), eq(tenantDefaultModels.modelType, modelType)));
    }
  });
  return { ...found, enabled };
}

export async function listCustomModels(ctx: Ctx, tenantId: string, provider: string): Promise<Model[]> {
  return (await listModels(ctx, tenantId, provider)).filter((m) => m.fetch_from === 'custom');
}

/**
 * Adds a custom model. Everything is checked before anything is written, and the check, the insert
 * and the answer are one transaction over the same row: a refused request stores nothing, and the
 * answer is the row as stored (it was read back by name before, and a write whose read-back failed
 * answered 400 with the model stored).
 */
async function addCustomModelNow(ctx: Ctx, caller: Caller, provider: string, body: CustomModelBody): Promise<Model> {
  const p = catalogueEntry(provider);
  if (!p.supported_model_types.includes(body.model_type)) {
    throw badRequest(`Parameter error: model_type ${p.label} does not serve ${body.model_type} models`, [{ path: 'model_type', message: 'not supported by this provider' }]);
  }
  const duplicate = () => exists(`The model '${body.model}' already exists for this provider`);
  try {
    return await ctx.db.transaction(async (tx) => {
      const same = and(eq(customModels.tenantId, caller.tenantId), eq(customModels.provider, provider), eq(customModels.modelType, body.model_type), eq(customModels.model, body.model));
      const [dup] = await tx.select({ id: customModels.id }).from(customModels).where(same);
      if (dup) throw duplicate();
      const [row] = await tx
        .insert(customModels)
        .values({
          id: randomUUID(),
          tenantId: caller.tenantId,
          provider,
          modelType: body.model_type,
          model: body.model,
          label: body.label,
          features: [...new Set(body.features)],
          contextSize: body.context_size,
          maxOutputTokens: body.max_output_tokens,
          createdBy: caller.userId,
        })
        .returning();
      // A switch left from a predefined model of the same name still applies (as in listModels).
      const [setting] = await tx
        .select({ enabled: modelSettings.enabled })
        .from(modelSettings)
        .where(and(eq(modelSettings.tenantId, caller.tenantId), eq(modelSettings.provider, provider), eq(modelSettings.modelType, row.modelType), eq(modelSettings.model, row.model)));
      return { ...customInfo(row), enabled: setting?.enabled ?? true };
    });
  } catch (e) {
    // Two adds of the same model at once: the unique index decides.
    if (isUniqueViolation(e)) throw duplicate();
    throw e;
  }
}

/** Deletes a custom model (and, unless a predefined model has its name, its switch and default), in one transaction: a 200 means it is gone. */
async function deleteCustomModelNow(ctx: Ctx, tenantId: string, provider: string, model: string, modelType: ModelType): Promise<void> {
  const stillPredefined = catalogueEntry(provider).models.some((m) => m.model === model && m.model_type === modelType);
  const where = and(eq(customModels.tenantId, tenantId), eq(customModels.provider, provider), eq(customModels.modelType, modelType), eq(customModels.model, model));
  await ctx.db.transaction(async (tx) => {
    const gone = await tx.delete(customModels).where(where).returning({ id: customModels.id });
    if (!gone.length) throw notFoundOrForeign('Custom model', model);
    if (!stillPredefined) {
      await tx.delete(modelSettings).where(and(eq(modelSettings.tenantId, tenantId), eq(modelSettings.provider, provider), eq(modelSettings.modelType, modelType), eq(modelSettings.model, model)));
      await tx
        .delete(tenantDefaultModels)
        .where(and(eq(tenantDefaultModels.tenantId, tenantId), eq(tenantDefaultModels.provider, provider), eq(tenantDefaultModels.model, model), eq(tenantDefaultModels.modelType, modelType)));
    }
  });
}

/** Enabled models of one type from the providers the tenant has configured. */
export async function availableModels(ctx: Ctx, tenantId: string, modelType: ModelType): Promise<AvailableProvider[]> {
  const rows = await ctx.db.select({ provider: modelProviderCredentials.provider }).from(modelProviderCredentials).where(eq(modelProviderCredentials.tenantId, tenantId));
  const configured = new Set(rows.map((r) => r.provider));
  const out: AvailableProvider[] = [];
  for (const p of CATALOGUE) {
    if (!configured.has(p.provider)) continue;
    const models = (await listModels(ctx, tenantId, p.provider, modelType)).filter((m) => m.enabled).map(({ enabled: _e, ...info }) => info);
    if (models.length) out.push({ provider: p.provider, label: p.label, models });
  }
  return out;
}

/** A model that can run now: configured provider, known and enabled model; else VALIDATION-1000. */
export async function assertAvailable(ctx: Ctx, tenantId: string, provider: string, model: string, modelType: ModelType): Promise<Model> {
  catalogueEntry(provider);
  if (!(await credRow(ctx, tenantId, provider))) throw notFoundOrForeign('Model provider credentials', provider);
  const m = await modelOf(ctx, tenantId, provider, model, modelType);
  if (!m.enabled) throw badRequest(`The model '${model}' is disabled`, { provider, model });
  return m;
}

export async function getDefault(ctx: Ctx, tenantId: string, modelType: ModelType): Promise<DefaultModel | null> {
  const [row] = await ctx.db.select().from(tenantDefaultModels).where(and(eq(tenantDefaultModels.tenantId, tenantId), eq(tenantDefaultModels.modelType, modelType)));
  return row ? { model_type: modelType, provider: row.provider, model: row.model } : null;
}

export async function allDefaults(ctx: Ctx, tenantId: string): Promise<{ model_type: ModelType; default: DefaultModel | null }[]> {
  const rows = await ctx.db.select().from(tenantDefaultModels).where(eq(tenantDefaultModels.tenantId, tenantId));
  return MODEL_TYPES.map((t) => {
    const r = rows.find((x) => x.modelType === t);
    return { model_type: t, default: r ? { model_type: t, provider: r.provider, model: r.model } : null };
  });
}

export async function setDefault(ctx: Ctx, tenantId: string, d: DefaultModel): Promise<DefaultModel> {
  await assertAvailable(ctx, tenantId, d.provider, d.model, d.model_type);
  await ctx.db
    .insert(tenantDefaultModels)
    .values({ tenantId, modelType: d.model_type, provider: d.provider, model: d.model })
    .onConflictDoUpdate({ target: [tenantDefaultModels.tenantId, tenantDefaultModels.modelType], set: { provider: d.provider, model: d.model, updatedAt: new Date() } });
  return d;
}

// The writes, each telling caches of resolved models when it is done (also when it fails midway).
const changing =
  <A extends unknown[], R>(fn: (...args: A) => Promise<R>, tenantOf: (...args: A) => string) =>
  async (...args: A): Promise<R> => {
    try {
      return await fn(...args);
    } finally {
      modelsChanged(tenantOf(...args));
    }
  };
export const saveCredentials = changing(saveCredentialsNow, (_ctx, caller) => caller.tenantId);
export const deleteCredentials = changing(deleteCredentialsNow, (_ctx, tenantId) => tenantId);
export const setModelEnabled = changing(setModelEnabledNow, (_ctx, tenantId) => tenantId);
export const addCustomModel = changing(addCustomModelNow, (_ctx, caller) => caller.tenantId);
export const deleteCustomModel = changing(deleteCustomModelNow, (_ctx, tenantId) => tenantId);
