/**
 * What the model management screen needs from the server, behind a context so stories and tests
 * can pass an in-memory implementation (memory-model-api.ts). The default is the real API.
 */
import { createContext, useContext } from 'react';
import type { CredentialsTestResult, DefaultModel, Model, ModelProvider, ModelType, ProviderCredentialsOut, AvailableProvider } from '../../../../schemas/model';
import * as api from '../../../api/models';
import type { CustomModelInput, TenantDefaultEntry, ValidateInput } from '../../../api/models';

export interface ModelAdminApi {
  listProviders(): Promise<ModelProvider[]>;
  getCredentials(provider: string): Promise<ProviderCredentialsOut>;
  saveCredentials(provider: string, credentials: Record<string, string>): Promise<ProviderCredentialsOut>;
  deleteCredentials(provider: string): Promise<unknown>;
  validateCredentials(provider: string, body: ValidateInput): Promise<CredentialsTestResult>;
  listModels(provider: string): Promise<Model[]>;
  setModelEnabled(provider: string, model: { model: string; model_type: ModelType }, enabled: boolean): Promise<Model>;
  addCustomModel(provider: string, body: CustomModelInput): Promise<Model>;
  deleteCustomModel(provider: string, model: { model: string; model_type: ModelType }): Promise<unknown>;
  listAvailable(modelType: ModelType): Promise<AvailableProvider[]>;
  listDefaults(): Promise<TenantDefaultEntry[]>;
  setDefault(body: DefaultModel): Promise<DefaultModel>;
}

// Form submits show errors themselves (SchemaForm), so those calls do not toast.
const silent = { reaction: 'silent' } as const;

export const apiModelAdminApi: ModelAdminApi = {
  listProviders: () => api.listModelProviders(),
  getCredentials: (p) => api.getProviderCredentials(p),
  saveCredentials: (p, c) => api.saveProviderCredentials(p, c, silent),
  deleteCredentials: (p) => api.deleteProviderCredentials(p),
  validateCredentials: (p, b) => api.validateProviderCredentials(p, b, silent),
  listModels: (p) => api.listProviderModels(p),
  setModelEnabled: (p, m, enabled) => api.setModelEnabled(p, m, enabled),
  addCustomModel: (p, b) => api.addCustomModel(p, b, silent),
  deleteCustomModel: (p, m) => api.deleteCustomModel(p, m),
  listAvailable: (t) => api.listAvailableModels(t),
  listDefaults: () => api.listTenantDefaults(),
  setDefault: (b) => api.setTenantDefault(b),
};

export const ModelAdminApiContext = createContext<ModelAdminApi>(apiModelAdminApi);
export const useModelAdminApi = () => useContext(ModelAdminApiContext);
