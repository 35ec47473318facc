// node-oracledb ships no type declarations: the little the connection check and GBI use.
declare module 'oracledb' {
  interface Result {
    metaData?: { name: string; dbTypeName?: string }[];
    rows?: unknown[];
  }
  interface Connection {
    callTimeout: number;
    execute(sql: string, binds?: unknown[], options?: { outFormat?: number }): Promise<Result>;
    break(): Promise<void>;
    rollback(): Promise<void>;
    close(): Promise<void>;
  }
  interface ConnectionAttributes {
    user?: string;
    password?: string;
    connectString?: string;
  }
  export function getConnection(attrs: ConnectionAttributes): Promise<Connection>;
  export const thin: boolean;
  export const versionString: string;
  export const OUT_FORMAT_ARRAY: number;
}
