// node-oracledb ships no type declarations: the little the connection check uses.
declare module 'oracledb' {
  interface Connection {
    callTimeout: number;
    execute(sql: string): Promise<unknown>;
    break(): Promise<void>;
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
}
