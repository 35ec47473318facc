/** The little of oidc-provider (a test-only dependency without its own types) the fixture uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown> & { findAccount?(ctx: unknown, id: string): Promise<Account | undefined> });
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
