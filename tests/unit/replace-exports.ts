import { vi } from 'vitest';

type AnyFn = (...args: never[]) => unknown;

/**
 * Answers a module's exported functions with fakes, for the test file that calls it (in beforeAll):
 * what a `vi.mock` factory did, but spied on the module's live exports, so the file runs in the
 * shared module graph of its vitest project (vite.config.ts `isolate: false`) instead of a worker
 * and a jsdom of its own (a fresh worker costs about 2 s of CPU). Vitest restores every spy after
 * each file, so the next file sees the real exports. Callers reach the fakes because the test
 * transform reads an imported binding from the module at each call.
 *
 * @example
 * import * as pluginsApi from '../../../api/plugins';
 * const api = { listPlugins: vi.fn() };
 * beforeAll(() => replaceExports(pluginsApi, api));
 */
export function replaceExports<M extends object>(mod: M, fakes: { [K in keyof M]?: AnyFn }): void {
  for (const [name, fake] of Object.entries(fakes) as [string, AnyFn][]) {
    vi.spyOn(mod as Record<string, AnyFn>, name).mockImplementation(fake);
  }
}
