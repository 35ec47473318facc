import { createContext, useContext } from 'react';

/**
 * The ids of the flow's secret environment variables that have a value stored on the server. A
 * secret's value is never sent back to the browser, so without this the editor could not tell a
 * stored secret from a missing one. The page that loads and saves the draft provides it (from the
 * draft's `secrets_set`); without a provider the editor cannot tell and says only how to keep one.
 */
export const StoredSecretsContext = createContext<ReadonlySet<string> | null>(null);

export const useStoredSecrets = () => useContext(StoredSecretsContext);
