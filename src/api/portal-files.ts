/** WEB files: an attachment for a portal chat or run, owned by the user (no project space). */
import { UploadedFile } from '../../schemas/knowledge';
import { portalEndpoints } from './portal';
import { call, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

/** Uploads one file (multipart `file`); the answer's id goes into a run body's `files`. */
export function uploadPortalFile(file: File, opts: Opts = {}) {
  const form = new FormData();
  form.append('file', file, file.name);
  return call(UploadedFile, portalEndpoints.upload, form, { workspaceId: null, ...opts });
}
