/** CONSOLE databases group (spec 3 "Database", 5, 7.5, 9): external databases; the password only through its endpoint. */
import { z } from 'zod';
import { page } from '../../schemas/common';
import { CheckResult, Database, DatabaseCheckBody, DatabaseCreateBody, DatabaseListQuery, DatabasePassword, DatabaseUpdateBody } from '../../schemas/database';
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const base = '/api/v1/console/databases';
export const databaseEndpoints = {
  list: { method: 'GET', url: base, name: 'databases.list' },
  create: { method: 'POST', url: base, name: 'databases.create' },
  update: { method: 'PUT', url: base, name: 'databases.update' },
  checkConnection: { method: 'POST', url: `${base}/check-connection`, name: 'databases.checkConnection' },
  get: { method: 'GET', url: `${base}/:database_id`, name: 'databases.get' },
  remove: { method: 'DELETE', url: `${base}/:database_id`, name: 'databases.remove' },
  password: { method: 'GET', url: `${base}/:database_id/password`, name: 'databases.password' },
  recheck: { method: 'GET', url: `${base}/:database_id/check`, name: 'databases.recheck' },
} as const satisfies Record<string, Endpoint>;

export type DatabaseListParams = Partial<z.input<typeof DatabaseListQuery>>;
export type DatabaseCreateInput = z.input<typeof DatabaseCreateBody>;
export type DatabaseUpdateInput = z.input<typeof DatabaseUpdateBody>;
export type DatabaseCheckInput = z.input<typeof DatabaseCheckBody>;

/** Databases of the session's project space, newest first, password masked. */
export const listDatabases = (q: DatabaseListParams = {}, opts?: Opts) => call(page(Database), databaseEndpoints.list, { ...q }, opts);

/** Adds a database (owner, admin); its status is 'detecting' until the background check ends. */
export const createDatabase = (body: DatabaseCreateInput, opts?: Opts) => call(Database, databaseEndpoints.create, body, opts);

/** Changes a database (owner, admin); a password left out or masked keeps the stored one. */
export const updateDatabase = (body: DatabaseUpdateInput, opts?: Opts) => call(Database, databaseEndpoints.update, body, opts);

/** Connects with unsaved settings (owner, admin); a failed connection is a result, not an error. */
export const checkDatabaseConnection = (body: DatabaseCheckInput, opts?: Opts) => call(CheckResult, databaseEndpoints.checkConnection, body, opts);

export const getDatabase = (database_id: string, opts?: Opts) => call(Database, databaseEndpoints.get, { database_id }, opts);

/** Deletes a database (owner, admin). */
export const deleteDatabase = (database_id: string, opts?: Opts) => call(z.null(), databaseEndpoints.remove, { database_id }, opts);

/** The plain password (owner, admin). */
export const getDatabasePassword = (database_id: string, opts?: Opts) => call(DatabasePassword, databaseEndpoints.password, { database_id }, opts);

/** Checks the saved settings now and records the detection status (any member); answers the database. */
export const recheckDatabase = (database_id: string, opts?: Opts) => call(Database, databaseEndpoints.recheck, { database_id }, opts);
