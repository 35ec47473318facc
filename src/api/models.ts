/** Models groups (spec 7.4 admin models, 7.5 console models): providers, credentials, models, defaults, parameter rules. */
import { z } from 'zod';
import {
  AvailableProvider,
  CredentialsTestResult,
  CustomModelBody,
  DefaultModel,
  Model,
  ModelProvider,
  ModelType,
  ParameterRule,
  ParameterSuggestion,
  ProviderCredentialsOut,
  type CredentialsValidateBody,
} from '../../schemas/model';
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const admin = '/api/v1/admin/models';
const prov = `${admin}/model-providers/:provider`;
const consoleBase = '/api/v1/console/models';
export const modelEndpoints = {
  available: { method: 'GET', url: `${admin}/available`, name: 'models.available' },
  tenantDefault: { method: 'GET', url: `${admin}/tenant-default`, name: 'models.tenantDefault' },
  setTenantDefault: { method: 'PUT', url: `${admin}/tenant-default`, name: 'models.setTenantDefault' },
  tenantDefaults: { method: 'GET', url: `${admin}/tenant-default/all`, name: 'models.tenantDefaults' },
  providers: { method: 'GET', url: `${admin}/model-providers`, name: 'models.providers' },
  credentials: { method: 'GET', url: `${prov}/credentials`, name: 'models.credentials' },
  saveCredentials: { method: 'POST', url: `${prov}/credentials`, name: 'models.saveCredentials' },
  deleteCredentials: { method: 'DELETE', url: `${prov}/credentials`, name: 'models.deleteCredentials' },
  validateCredentials: { method: 'POST', url: `${prov}/credentials/validate`, name: 'models.validateCredentials' },
  models: { method: 'GET', url: `${prov}/models`, name: 'models.models' },
  enable: { method: 'PUT', url: `${prov}/models/enable`, name: 'models.enable' },
  disable: { method: 'PUT', url: `${prov}/models/disable`, name: 'models.disable' },
  customModels: { method: 'GET', url: `${prov}/models/model-custom`, name: 'models.customModels' },
  addCustomModel: { method: 'POST', url: `${prov}/models/model-custom`, name: 'models.addCustomModel' },
  deleteCustomModel: { method: 'DELETE', url: `${prov}/models/model-custom`, name: 'models.deleteCustomModel' },
  consoleAvailable: { method: 'GET', url: `${consoleBase}/available`, name: 'models.consoleAvailable' },
  consoleTenantDefault: { method: 'GET', url: `${consoleBase}/tenant-default`, name: 'models.consoleTenantDefault' },
  parameterRules: { method: 'GET', url: `${consoleBase}/parameter-rules`, name: 'models.parameterRules' },
  parameterSuggestions: { method: 'GET', url: `${consoleBase}/model-parameter-suggestions`, name: 'models.parameterSuggestions' },
} as const satisfies Record<string, Endpoint>;

export const TenantDefaultEntry = z.object({ model_type: ModelType, default: DefaultModel.nullable() });
export type TenantDefaultEntry = z.infer<typeof TenantDefaultEntry>;
export type CustomModelInput = z.input<typeof CustomModelBody>;
export type ValidateInput = z.input<typeof CredentialsValidateBody>;
export interface ModelRef {
  provider: string;
  model: string;
  model_type?: ModelType;
}

// ---------------------------------------------------------------- admin (system area)

/** The provider catalogue with whether the tenant configured each. */
export const listModelProviders = (opts?: Opts) => call(z.array(ModelProvider), modelEndpoints.providers, {}, opts);

/** Saved credentials of a provider, the key masked. */
export const getProviderCredentials = (provider: string, opts?: Opts) => call(ProviderCredentialsOut, modelEndpoints.credentials, { provider }, opts);

/** Saves credentials; sending the masked key back keeps the stored one. */
export const saveProviderCredentials = (provider: string, credentials: Record<string, string>, opts?: Opts) =>
  call(ProviderCredentialsOut, modelEndpoints.saveCredentials, { provider, credentials }, opts);

export const deleteProviderCredentials = (provider: string, opts?: Opts) => call(z.null(), modelEndpoints.deleteCredentials, { provider }, opts);

/** Tries credentials with a tiny real request; the answer says ok or why not. */
export const validateProviderCredentials = (provider: string, body: ValidateInput, opts?: Opts) =>
  call(CredentialsTestResult, modelEndpoints.validateCredentials, { provider, ...body }, opts);

export const listProviderModels = (provider: string, model_type?: ModelType, opts?: Opts) => call(z.array(Model), modelEndpoints.models, { provider, model_type }, opts);

export const setModelEnabled = (provider: string, body: { model: string; model_type: ModelType }, enabled: boolean, opts?: Opts) =>
  call(Model, enabled ? modelEndpoints.enable : modelEndpoints.disable, { provider, ...body }, opts);

export const listCustomModels = (provider: string, opts?: Opts) => call(z.array(Model), modelEndpoints.customModels, { provider }, opts);

export const addCustomModel = (provider: string, body: CustomModelInput, opts?: Opts) => call(Model, modelEndpoints.addCustomModel, { provider, ...body }, opts);

export const deleteCustomModel = (provider: string, body: { model: string; model_type: ModelType }, opts?: Opts) =>
  call(z.null(), modelEndpoints.deleteCustomModel, { provider, ...body }, opts);

export const listAvailableModels = (model_type: ModelType, opts?: Opts) => call(z.array(AvailableProvider), modelEndpoints.available, { model_type }, opts);

export const listTenantDefaults = (opts?: Opts) => call(z.array(TenantDefaultEntry), modelEndpoints.tenantDefaults, {}, opts);

export const setTenantDefault = (body: DefaultModel, opts?: Opts) => call(DefaultModel, modelEndpoints.setTenantDefault, { ...body }, opts);

// ---------------------------------------------------------------- console (builders)

/** Enabled models of a type, for model pickers. */
export const availableModels = (model_type: ModelType = 'llm', opts?: Opts) => call(z.array(AvailableProvider), modelEndpoints.consoleAvailable, { model_type }, opts);

export const tenantDefaultModel = (model_type: ModelType = 'llm', opts?: Opts) => call(DefaultModel.nullable(), modelEndpoints.consoleTenantDefault, { model_type }, opts);

export const parameterRules = (ref: ModelRef, opts?: Opts) => call(z.array(ParameterRule), modelEndpoints.parameterRules, { ...ref }, opts);

export const parameterSuggestions = (ref: ModelRef, opts?: Opts) => call(z.array(ParameterSuggestion), modelEndpoints.parameterSuggestions, { ...ref }, opts);
