import { defineNodeExecutor, NodeExecutionError, type HttpRequest } from '../../src/plugin-sdk';
import { httpRequestPlugin, type HttpRequestConfig } from './manifest';
import type { VariableReader } from '../../src/plugin-sdk';

export const HTTP_ERRORS = {
  CLIENT_UNAVAILABLE: 'HTTP-CLIENT-UNAVAILABLE',
  URL_INVALID: 'HTTP-URL-INVALID',
  BODY_UNSUPPORTED: 'HTTP-BODY-UNSUPPORTED',
  REQUEST_FAILED: 'HTTP-REQUEST-FAILED',
} as const;

type Built = Omit<HttpRequest, 'signal'>;

/** The request the config describes, references rendered (exported for the single-node run and tests). */
export function buildHttpRequest(config: HttpRequestConfig, variables: VariableReader): Built {
  const method = config.method.toUpperCase();
  let url: URL;
  const rawUrl = variables.render(config.url).trim();
  try {
    url = new URL(rawUrl);
  } catch {
    throw new NodeExecutionError(HTTP_ERRORS.URL_INVALID, `"${rawUrl}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new NodeExecutionError(HTTP_ERRORS.URL_INVALID, `Only http and https URLs can be requested, not ${url.protocol}`);
  for (const p of config.params) {
    const key = variables.render(p.key).trim();
    if (key) url.searchParams.append(key, variables.render(p.value));
  }

  const headers: Record<string, string> = {};
  for (const h of config.headers) {
    const key = variables.render(h.key).trim();
    if (key) headers[key.toLowerCase()] = variables.render(h.value);
  }
  if (config.authType === 'bearer') headers.authorization = `Bearer ${variables.render(config.token)}`;
  else if (config.authType === 'basic') {
    headers.authorization = `Basic ${Buffer.from(`${variables.render(config.username)}:${variables.render(config.password)}`).toString('base64')}`;
  } else if (config.authType === 'api-key') {
    const name = config.apiKeyName.trim();
    if (config.apiKeyIn === 'query') url.searchParams.set(name, variables.render(config.token));
    else headers[name.toLowerCase()] = variables.render(config.token);
  }

  let body: string | undefined;
  // GET and HEAD carry no body (the manifest warns); the other methods send the chosen one.
  if (method !== 'GET' && method !== 'HEAD') {
    switch (config.bodyType) {
      case 'json':
        body = variables.render(config.json);
        headers['content-type'] ??= 'application/json';
        break;
      case 'raw':
        body = variables.render(config.raw);
        headers['content-type'] ??= 'text/plain; charset=utf-8';
        break;
      case 'x-www-form-urlencoded': {
        if (config.formData.some((f) => f.type === 'file')) throw new NodeExecutionError(HTTP_ERRORS.BODY_UNSUPPORTED, 'A urlencoded form cannot carry files: use form-data');
        const form = new URLSearchParams();
        for (const f of config.formData) if (f.key) form.append(f.key, variables.render(f.value));
        body = form.toString();
        headers['content-type'] ??= 'application/x-www-form-urlencoded';
        break;
      }
      case 'form-data': {
        // File parts need the file's bytes, which the HTTP client contract (text bodies) cannot carry yet.
        if (config.formData.some((f) => f.type === 'file')) throw new NodeExecutionError(HTTP_ERRORS.BODY_UNSUPPORTED, 'Sending files in form-data is not supported yet');
        const boundary = `----weft${globalThis.crypto.randomUUID().replace(/-/g, '')}`;
        const parts = config.formData
          .filter((f) => f.key)
          .map((f) => `--${boundary}\r\nContent-Disposition: form-data; name="${f.key.replace(/"/g, '%22')}"\r\n\r\n${variables.render(f.value)}\r\n`);
        body = `${parts.join('')}--${boundary}--\r\n`;
        headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
        break;
      }
      case 'binary':
        throw new NodeExecutionError(HTTP_ERRORS.BODY_UNSUPPORTED, 'Sending a file as the body is not supported yet');
      case 'none':
        break;
    }
  }
  // One bound for the whole exchange: the guarded client takes a single timeout.
  const timeoutMs = (config.connectTimeoutSeconds + config.writeTimeoutSeconds + config.readTimeoutSeconds) * 1000;
  return { method, url: url.toString(), headers, ...(body !== undefined ? { body } : {}), timeoutMs };
}

/**
 * Sends the request through the server's guarded client (`services.http`) and returns the
 * response; a status of 4xx or 5xx is a response, not a failure (branch on `status_code`).
 */
export const httpRequestExecutor = defineNodeExecutor(httpRequestPlugin, {
  async execute({ config, variables, services, signal }) {
    if (!services.http) throw new NodeExecutionError(HTTP_ERRORS.CLIENT_UNAVAILABLE, 'No HTTP client is available to this run');
    const req = buildHttpRequest(config, variables);
    let res;
    try {
      res = await services.http.request({ ...req, signal });
    } catch (e) {
      if (e instanceof NodeExecutionError || signal.aborted) throw e;
      throw new NodeExecutionError(HTTP_ERRORS.REQUEST_FAILED, `The request to ${req.url} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    return { outputs: { status_code: res.status, body: res.body, headers: res.headers, files: [] } };
  },
});

export default httpRequestExecutor;
