/**
 * CONSOLE files group (spec 7.5 "files"): POST /files/upload (multipart: file, biz_type).
 *
 * Uploads report their progress, which fetch cannot do, so {@link uploadFile} sends through
 * XMLHttpRequest with the same headers as {@link request} (bearer, tenant, workspace) and the same
 * envelope and error rules. A 401 goes once more through `request`, whose reactions refresh the token
 * and replay; other failures go through the app's reactions too (via `rejectLocally`), so the user sees
 * the same messages as for any call.
 */
import { UploadedFile } from './datasets-contract';
import { useSession } from '../app/session';
import { ApiError, call, ClientErrorCode, rejectLocally, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

export const fileEndpoints = {
  upload: { method: 'POST', url: '/api/v1/console/files/upload', name: 'files.upload' },
} as const satisfies Record<string, Endpoint>;

export interface UploadOptions extends Opts {
  /** Called with 0…1 as the bytes go out. */
  onProgress?: (fraction: number) => void;
  /** Where the API lives for the progress upload ('' = same origin, as in the app; tests give a server). */
  origin?: string;
}

function formOf(file: Blob & { name?: string }, bizType: string): FormData {
  const fd = new FormData();
  fd.append('biz_type', bizType);
  fd.append('file', file, file.name ?? 'file');
  return fd;
}

/** The ApiError for an XHR answer, read like request.ts reads a fetch answer. */
export function errorOfAnswer(status: number, text: string): ApiError {
  let code = `HTTP-${status}`;
  let msg = '';
  let data: unknown = null;
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (body && typeof body === 'object') {
      if (typeof body.code === 'string' || typeof body.code === 'number') code = String(body.code);
      const m = body.msg ?? body.message;
      if (typeof m === 'string') msg = m;
      data = body.data ?? null;
    }
  } catch {
    // Not JSON: the status decides.
  }
  return new ApiError({ status, code, msg, data });
}

/** Reads a 2xx envelope's data with the UploadedFile schema, or throws the ApiError. */
export function parseUploadAnswer(status: number, text: string): UploadedFile {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (cause) {
    throw new ApiError({ status, code: ClientErrorCode.BAD_RESPONSE, msg: 'The answer is not JSON', cause });
  }
  const env = body as { code?: unknown; msg?: unknown; data?: unknown };
  if (env && typeof env === 'object' && 'code' in env && env.code !== 0 && env.code !== '0') {
    throw new ApiError({ status, code: String(env.code), msg: typeof env.msg === 'string' ? env.msg : '', data: env.data ?? null });
  }
  const parsed = UploadedFile.safeParse(env && typeof env === 'object' && 'data' in env ? env.data : body);
  if (!parsed.success) throw new ApiError({ status, code: ClientErrorCode.BAD_RESPONSE, msg: 'The answer does not match its schema', data: parsed.error.issues });
  return parsed.data;
}

function sendXhr(fd: FormData, opts: UploadOptions): Promise<UploadedFile> {
  const session = useSession.getState();
  const token = opts.token === undefined ? session.accessToken : opts.token;
  const tenantId = opts.tenantId === undefined ? session.tenantId : opts.tenantId;
  const workspaceId = opts.workspaceId === undefined ? session.workspaceId : opts.workspaceId;
  return new Promise<UploadedFile>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', (opts.origin ?? '') + fileEndpoints.upload.url);
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    if (tenantId) xhr.setRequestHeader('X-Tenant-Id', tenantId);
    if (workspaceId) xhr.setRequestHeader('X-Workspace-Id', workspaceId);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) opts.onProgress?.(Math.min(1, e.loaded / e.total));
    };
    xhr.onload = () => {
      try {
        if (xhr.status < 200 || xhr.status >= 300) throw errorOfAnswer(xhr.status, xhr.responseText);
        opts.onProgress?.(1);
        resolve(parseUploadAnswer(xhr.status, xhr.responseText));
      } catch (e) {
        reject(e);
      }
    };
    xhr.onerror = () => reject(new ApiError({ status: 0, code: ClientErrorCode.NETWORK, msg: 'Upload failed' }));
    xhr.onabort = () => reject(new DOMException('The upload was aborted', 'AbortError'));
    if (opts.signal) {
      if (opts.signal.aborted) return xhr.abort();
      opts.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(fd);
  });
}

/**
 * Stores one file; `biz_type` says what it is for (e.g. 'dataset'). With `onProgress` (and a browser
 * XMLHttpRequest) the bytes' progress is reported; without, it is an ordinary {@link call}.
 *
 * @example const f = await uploadFile(file, 'dataset', { onProgress: (p) => setPct(p * 100) });
 */
export async function uploadFile(file: Blob & { name?: string }, bizType: string, opts: UploadOptions = {}): Promise<UploadedFile> {
  const { onProgress, origin: _origin, ...rest } = opts;
  if (!onProgress || typeof XMLHttpRequest === 'undefined') return call(UploadedFile, fileEndpoints.upload, formOf(file, bizType), rest);
  try {
    return await sendXhr(formOf(file, bizType), opts);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    // An expired token: the request layer refreshes it and replays (without progress this once).
    if (e.status === 401) return call(UploadedFile, fileEndpoints.upload, formOf(file, bizType), rest);
    return rejectLocally(fileEndpoints.upload, undefined, rest, e);
  }
}
