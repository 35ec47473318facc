import { z } from 'zod';
import { defineNodePlugin, isSelector, MaybeSelector, NODE_WIDGETS, parseTextReferences, Template, type FlowNode, type PluginIssue, type Port } from '../../src/plugin-sdk';
import { checkRunSettings, runSettingsShape, runSettingsTexts, withErrorOutputs, withFailBranch } from '../shared/run-settings';
import { mergeTexts } from '../shared/texts';
import { dify } from './dify';

/** Widgets only this kind uses (rendered by its view.tsx). */
export const HTTP_REQUEST_WIDGETS = {
  /** `[{ key, value }]` rows whose values may hold references (form-data rows may hold a file). */
  keyValues: 'key-values',
} as const;

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
export const BODY_TYPES = ['none', 'form-data', 'x-www-form-urlencoded', 'json', 'raw', 'binary'] as const;
export const AUTH_TYPES = ['none', 'api-key', 'bearer', 'basic'] as const;

export const KeyValue = z.object({ key: Template.default(''), value: Template.default('') });
export type KeyValue = z.infer<typeof KeyValue>;

/** A form-data field: text (with references) or a file variable. */
export const FormField = z.object({
  key: z.string().max(200).default(''),
  type: z.enum(['text', 'file']).default('text'),
  value: Template.default(''),
  file: MaybeSelector.default([]),
});

const on = (field: string, value: unknown) => ({ field, equals: value });
const body = 'fields.bodyGroup';
const auth = 'fields.authGroup';

const configSchema = z.object({
  method: z.enum(HTTP_METHODS).default('get').meta({ label: 'fields.method', optionLabels: 'methods', order: 0 }),
  url: Template.default('').meta({ label: 'fields.url', placeholder: 'fields.urlPlaceholder', widget: NODE_WIDGETS.template, order: 1 }),
  headers: z.array(KeyValue).max(100).default([]).meta({ label: 'fields.headers', widget: HTTP_REQUEST_WIDGETS.keyValues, order: 2 }),
  params: z.array(KeyValue).max(100).default([]).meta({ label: 'fields.params', widget: HTTP_REQUEST_WIDGETS.keyValues, order: 3 }),
  bodyType: z.enum(BODY_TYPES).default('none').meta({ label: 'fields.bodyType', optionLabels: 'bodyTypes', group: body, order: 10 }),
  formData: z
    .array(FormField)
    .max(100)
    .default([])
    .meta({ label: 'fields.formData', widget: HTTP_REQUEST_WIDGETS.keyValues, group: body, order: 11, visibleWhen: { field: 'bodyType', in: ['form-data', 'x-www-form-urlencoded'] } }),
  json: Template.default('').meta({ label: 'fields.json', widget: NODE_WIDGETS.template, rows: 8, group: body, order: 12, visibleWhen: on('bodyType', 'json') }),
  raw: Template.default('').meta({ label: 'fields.raw', widget: NODE_WIDGETS.template, rows: 8, group: body, order: 13, visibleWhen: on('bodyType', 'raw') }),
  binary: MaybeSelector.default([]).meta({ label: 'fields.binary', widget: NODE_WIDGETS.variable, group: body, order: 14, visibleWhen: on('bodyType', 'binary') }),
  authType: z.enum(AUTH_TYPES).default('none').meta({ label: 'fields.authType', optionLabels: 'authTypes', group: auth, order: 20 }),
  apiKeyIn: z
    .enum(['header', 'query'])
    .default('header')
    .meta({ label: 'fields.apiKeyIn', optionLabels: 'apiKeyPlaces', group: auth, order: 21, visibleWhen: on('authType', 'api-key') }),
  apiKeyName: z.string().max(200).default('X-API-Key').meta({ label: 'fields.apiKeyName', group: auth, order: 22, visibleWhen: on('authType', 'api-key') }),
  /** The API key or bearer token; usually `{{#env.NAME#}}` so the secret stays out of the flow. */
  token: Template.default('').meta({ label: 'fields.token', help: 'fields.tokenHelp', widget: NODE_WIDGETS.template, group: auth, order: 23, visibleWhen: { field: 'authType', in: ['api-key', 'bearer'] } }),
  username: Template.default('').meta({ label: 'fields.username', widget: NODE_WIDGETS.template, group: auth, order: 24, visibleWhen: on('authType', 'basic') }),
  password: Template.default('').meta({ label: 'fields.password', help: 'fields.tokenHelp', widget: NODE_WIDGETS.template, group: auth, order: 25, visibleWhen: on('authType', 'basic') }),
  connectTimeoutSeconds: z.number().int().min(1).max(300).default(10).meta({ label: 'fields.connectTimeout', group: 'run.group', order: 90 }),
  readTimeoutSeconds: z.number().int().min(1).max(600).default(60).meta({ label: 'fields.readTimeout', group: 'run.group', order: 91 }),
  writeTimeoutSeconds: z.number().int().min(1).max(600).default(20).meta({ label: 'fields.writeTimeout', group: 'run.group', order: 92 }),
  verifySsl: z.boolean().default(true).meta({ label: 'fields.verifySsl', group: 'run.group', order: 93 }),
  ...runSettingsShape({ timeout: 120 }),
});
export type HttpRequestConfig = z.infer<typeof configSchema>;

const OUTPUTS: Port[] = [
  { name: 'body', type: 'string', labelKey: 'outputs.body' },
  { name: 'status_code', type: 'number', labelKey: 'outputs.statusCode' },
  { name: 'headers', type: 'object', labelKey: 'outputs.headers' },
  { name: 'files', type: 'array[file]', labelKey: 'outputs.files' },
];

/** A URL that starts with a reference is checked when it runs; a literal one must be http(s). */
function urlProblem(url: string): string | undefined {
  const u = url.trim();
  if (!u) return 'issues.urlEmpty';
  if (parseTextReferences(u)[0]?.start === 0) return undefined;
  return /^https?:\/\/[^\s/]+/i.test(u) ? undefined : 'issues.urlInvalid';
}

function validate(node: FlowNode<HttpRequestConfig>): PluginIssue[] {
  const c = node.config;
  const out: PluginIssue[] = [];
  const urlKey = urlProblem(c.url);
  if (urlKey) out.push({ key: urlKey, path: ['url'] });
  const seen = new Set<string>();
  c.headers.forEach((h, i) => {
    const key = h.key.trim().toLowerCase();
    if (!key && h.value.trim()) out.push({ key: 'issues.headerKeyEmpty', params: { index: i + 1 }, path: ['headers', i, 'key'] });
    else if (key && seen.has(key)) out.push({ key: 'issues.headerDuplicate', params: { name: h.key }, path: ['headers', i, 'key'], severity: 'warning' });
    seen.add(key);
  });
  if (c.bodyType === 'json' && c.json.trim() && !parseTextReferences(c.json).length) {
    try {
      JSON.parse(c.json);
    } catch {
      out.push({ key: 'issues.jsonInvalid', path: ['json'] });
    }
  }
  if (c.bodyType === 'binary' && !isSelector(c.binary)) out.push({ key: 'issues.binaryMissing', path: ['binary'] });
  if ((c.bodyType === 'form-data' || c.bodyType === 'x-www-form-urlencoded') && c.formData.some((f) => f.type === 'file' && !isSelector(f.file))) {
    out.push({ key: 'issues.formFileMissing', path: ['formData'] });
  }
  if (c.bodyType !== 'none' && (c.method === 'get' || c.method === 'head')) out.push({ key: 'issues.bodyIgnored', path: ['bodyType'], severity: 'warning' });
  if ((c.authType === 'api-key' || c.authType === 'bearer') && !c.token.trim()) out.push({ key: 'issues.tokenMissing', path: ['token'] });
  if (c.authType === 'api-key' && !c.apiKeyName.trim()) out.push({ key: 'issues.apiKeyNameMissing', path: ['apiKeyName'] });
  if (c.authType === 'basic' && !c.username.trim()) out.push({ key: 'issues.usernameMissing', path: ['username'] });
  out.push(...checkRunSettings(node, OUTPUTS));
  return out;
}

const methods = Object.fromEntries(HTTP_METHODS.map((m) => [m, m.toUpperCase()]));

/** Sends an HTTP request (through the server's guarded client) and returns the response. */
export const httpRequestPlugin = defineNodePlugin({
  kind: 'http-request',
  dify,
  version: 1,
  category: 'tool',
  icon: { lucide: 'globe' },
  color: '#0891b2',
  i18n: mergeTexts(runSettingsTexts, {
    zh: {
      title: 'HTTP 请求',
      description: '发送 HTTP 请求并返回响应',
      fields: {
        method: '请求方法',
        url: 'URL',
        urlPlaceholder: 'https://…，输入 { 插入变量',
        headers: '请求头',
        params: '查询参数',
        bodyGroup: '请求体',
        bodyType: '请求体类型',
        formData: '表单字段',
        json: 'JSON',
        raw: '文本',
        binary: '文件变量',
        authGroup: '鉴权',
        authType: '鉴权方式',
        apiKeyIn: 'API Key 位置',
        apiKeyName: 'API Key 名称',
        token: '密钥 / 令牌',
        tokenHelp: '建议引用环境变量中的密钥，避免明文写在流程里',
        username: '用户名',
        password: '密码',
        connectTimeout: '连接超时（秒）',
        readTimeout: '读取超时（秒）',
        writeTimeout: '写入超时（秒）',
        verifySsl: '校验 SSL 证书',
      },
      methods,
      bodyTypes: { none: '无', 'form-data': 'form-data', 'x-www-form-urlencoded': 'x-www-form-urlencoded', json: 'JSON', raw: '纯文本', binary: '二进制文件' },
      authTypes: { none: '无', 'api-key': 'API Key', bearer: 'Bearer 令牌', basic: 'Basic 用户名密码' },
      apiKeyPlaces: { header: '请求头', query: '查询参数' },
      outputs: { body: '响应内容', statusCode: '状态码', headers: '响应头', files: '响应文件' },
      issues: {
        urlEmpty: '请填写 URL',
        urlInvalid: 'URL 需以 http:// 或 https:// 开头',
        headerKeyEmpty: '第 {{index}} 个请求头缺少名称',
        headerDuplicate: '请求头 {{name}} 重复',
        jsonInvalid: '请求体不是合法的 JSON',
        binaryMissing: '请选择要发送的文件变量',
        formFileMissing: '表单中的文件字段未选择变量',
        bodyIgnored: 'GET 和 HEAD 请求不发送请求体',
        tokenMissing: '请填写密钥或令牌',
        apiKeyNameMissing: '请填写 API Key 的名称',
        usernameMissing: '请填写用户名',
      },
    },
    en: {
      title: 'HTTP request',
      description: 'Sends an HTTP request and returns the response',
      fields: {
        method: 'Method',
        url: 'URL',
        urlPlaceholder: 'https://…; type { to insert a variable',
        headers: 'Headers',
        params: 'Query parameters',
        bodyGroup: 'Body',
        bodyType: 'Body type',
        formData: 'Form fields',
        json: 'JSON',
        raw: 'Text',
        binary: 'File variable',
        authGroup: 'Authorization',
        authType: 'Authorization',
        apiKeyIn: 'Send the API key in',
        apiKeyName: 'API key name',
        token: 'Key / token',
        tokenHelp: 'Prefer a secret environment variable to writing the key into the flow',
        username: 'User name',
        password: 'Password',
        connectTimeout: 'Connect timeout (seconds)',
        readTimeout: 'Read timeout (seconds)',
        writeTimeout: 'Write timeout (seconds)',
        verifySsl: 'Verify SSL certificates',
      },
      methods,
      bodyTypes: { none: 'None', 'form-data': 'form-data', 'x-www-form-urlencoded': 'x-www-form-urlencoded', json: 'JSON', raw: 'Raw text', binary: 'Binary file' },
      authTypes: { none: 'None', 'api-key': 'API key', bearer: 'Bearer token', basic: 'Basic (user and password)' },
      apiKeyPlaces: { header: 'Header', query: 'Query parameter' },
      outputs: { body: 'Response body', statusCode: 'Status code', headers: 'Response headers', files: 'Response files' },
      issues: {
        urlEmpty: 'Enter the URL',
        urlInvalid: 'The URL must start with http:// or https://',
        headerKeyEmpty: 'Header {{index}} has no name',
        headerDuplicate: 'The header {{name}} appears twice',
        jsonInvalid: 'The body is not valid JSON',
        binaryMissing: 'Choose the file variable to send',
        formFileMissing: 'A file field of the form has no variable',
        bodyIgnored: 'GET and HEAD requests send no body',
        tokenMissing: 'Enter the key or token',
        apiKeyNameMissing: 'Enter the API key name',
        usernameMissing: 'Enter the user name',
      },
    },
  }),
  configSchema,
  outputs: (config) => withErrorOutputs(config, OUTPUTS),
  sourceHandles: (config) => withFailBranch(config, [{ id: 'source' }]),
  summary: (config) => (config.url.trim() ? [{ text: `${config.method.toUpperCase()} ${config.url.trim()}`, mono: true }] : []),
  validate,
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default httpRequestPlugin;
