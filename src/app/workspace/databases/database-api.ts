/**
 * What the database screen needs from the server, behind a context so stories and tests can pass
 * an in-memory implementation (memory-database-api.ts). The default is the real API (src/api).
 */
import { createContext, useContext } from 'react';
import type { CheckResult, Database, DatabaseCheckBody, DatabaseCreateBody, DatabaseType, DatabaseUpdateBody } from '../../../../schemas/database';
import type { Workspace } from '../../../../schemas/workspace';
import {
  checkDatabaseConnection,
  createDatabase,
  deleteDatabase,
  getDatabasePassword,
  listDatabases,
  recheckDatabase,
  updateDatabase,
} from '../../../api/databases';
import { getWorkspace } from '../../../api/workspaces';
import type { PagedAnswer } from '../../../kit/schema-table';

export interface DatabaseQuery {
  page: number;
  page_size: number;
  name?: string;
  type?: DatabaseType | '';
}

export interface DatabaseApi {
  getWorkspace(workspaceId: string): Promise<Workspace>;
  list(workspaceId: string, q: DatabaseQuery): Promise<PagedAnswer<Database>>;
  create(workspaceId: string, body: DatabaseCreateBody): Promise<Database>;
  update(workspaceId: string, body: DatabaseUpdateBody): Promise<Database>;
  remove(workspaceId: string, id: string): Promise<unknown>;
  /** Tries settings before saving; a failed connection resolves with status 'failed'. */
  check(workspaceId: string, body: DatabaseCheckBody): Promise<CheckResult>;
  /** Checks a saved database again; answers it with its new status. */
  recheck(workspaceId: string, id: string): Promise<Database>;
  /** The plain password (owner, admin). */
  password(workspaceId: string, id: string): Promise<string>;
}

export const apiDatabaseApi: DatabaseApi = {
  getWorkspace: (id) => getWorkspace(id),
  list: (workspaceId, q) => listDatabases({ ...q, name: q.name || undefined, type: q.type || undefined }, { workspaceId }),
  create: (workspaceId, body) => createDatabase(body, { workspaceId, reaction: 'silent' }),
  update: (workspaceId, body) => updateDatabase(body, { workspaceId, reaction: 'silent' }),
  remove: (workspaceId, id) => deleteDatabase(id, { workspaceId }),
  check: (workspaceId, body) => checkDatabaseConnection(body, { workspaceId }),
  recheck: (workspaceId, id) => recheckDatabase(id, { workspaceId }),
  password: (workspaceId, id) => getDatabasePassword(id, { workspaceId }).then((r) => r.password),
};

export const DatabaseApiContext = createContext<DatabaseApi>(apiDatabaseApi);
export const useDatabaseApi = () => useContext(DatabaseApiContext);
