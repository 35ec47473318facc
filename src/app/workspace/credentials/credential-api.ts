/**
 * What the credential screen needs from the server, behind a context so stories and tests can pass
 * an in-memory implementation (memory-credential-api.ts). The default is the real API (src/api).
 */
import { createContext, useContext } from 'react';
import type { PageQuery } from '../../../../schemas/common';
import type { Credential, CredentialCreateBody, CredentialUpdateBody } from '../../../../schemas/credential';
import type { Workspace } from '../../../../schemas/workspace';
import { createCredential, deleteCredential, getCredentialSecret, listCredentials, updateCredential } from '../../../api/credentials';
import { getWorkspace } from '../../../api/workspaces';
import type { PagedAnswer } from '../../../kit/schema-table';
import type { z } from 'zod';

export type CredentialQuery = z.input<typeof PageQuery> & { name?: string };

export interface CredentialApi {
  getWorkspace(workspaceId: string): Promise<Workspace>;
  list(workspaceId: string, q: CredentialQuery): Promise<PagedAnswer<Credential>>;
  create(workspaceId: string, body: CredentialCreateBody): Promise<Credential>;
  update(workspaceId: string, body: CredentialUpdateBody): Promise<Credential>;
  remove(workspaceId: string, id: string): Promise<unknown>;
  /** The plain SK (owner, admin). */
  secret(workspaceId: string, id: string): Promise<string>;
}

// Forms show their own errors: those calls are silent; the list and delete toast through the request layer.
export const apiCredentialApi: CredentialApi = {
  getWorkspace: (id) => getWorkspace(id),
  list: (workspaceId, q) => listCredentials({ ...q, name: q.name || undefined }, { workspaceId }),
  create: (workspaceId, body) => createCredential(body, { workspaceId, reaction: 'silent' }),
  update: (workspaceId, body) => updateCredential(body, { workspaceId, reaction: 'silent' }),
  remove: (workspaceId, id) => deleteCredential(id, { workspaceId }),
  secret: (workspaceId, id) => getCredentialSecret(id, { workspaceId }).then((r) => r.sk),
};

export const CredentialApiContext = createContext<CredentialApi>(apiCredentialApi);
export const useCredentialApi = () => useContext(CredentialApiContext);
