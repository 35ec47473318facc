import type { DatabaseType } from '../../../schemas/database';
import type { GbiDialect, GbiResult } from '../../../schemas/gbi';
import type { OutboundPolicy } from '../security/outbound-policy';
import type { ConnectionSettings } from '../services/db-drivers';
import { OPENERS } from './db-openers';
import { describeWith, queryWith } from './db-session';
import { describePg, queryPg } from './pg-source';
import type { SourceTableInfo } from './source-rows';

/** How a database source is read (its tables and samples) and asked (checked SQL, read-only). */
export interface SourceEngine {
  describe(s: ConnectionSettings, policy: OutboundPolicy, sampleCount: number, timeoutMs?: number): Promise<SourceTableInfo[]>;
  query(s: ConnectionSettings, policy: OutboundPolicy, sql: string, limit: number, timeoutMs: number): Promise<GbiResult>;
}

/** Every database type of the databases feature can be a GBI source; its dialect is its type. */
export const ENGINES: Record<DatabaseType, SourceEngine> = {
  postgresql: { describe: describePg, query: queryPg },
  mysql: { describe: describeWith('mysql', OPENERS.mysql), query: queryWith('mysql', OPENERS.mysql) },
  sqlserver: { describe: describeWith('sqlserver', OPENERS.sqlserver), query: queryWith('sqlserver', OPENERS.sqlserver) },
  oracle: { describe: describeWith('oracle', OPENERS.oracle), query: queryWith('oracle', OPENERS.oracle) },
  clickhouse: { describe: describeWith('clickhouse', OPENERS.clickhouse), query: queryWith('clickhouse', OPENERS.clickhouse) },
  dm: { describe: describeWith('dm', OPENERS.dm), query: queryWith('dm', OPENERS.dm) },
};

export const dialectOf = (type: DatabaseType): GbiDialect => type;
