import { expect } from 'vitest';
import type { FlowDocument } from '../../schemas/flow';
import type { DistributionList, DistributionPlatform } from '../../schemas/distribution';
import { fakeOpenAi, type FakeServer } from './fake-providers';
import type { Harness } from './harness';
import { configureProvider, flow, textInput } from './runs-kit';
import { expectOk } from './workspace-fixture';

/**
 * Helpers of the distribution and portal API tests: publishing, distributing, the WEB paths, and the
 * fake model provider (one place to adapt if model providers on loopback need a setting).
 */

export const WEB = '/api/v1/web';
export const DIST = (appId: string) => `/api/v1/console/apps/${appId}/distribution`;

/** A workflow that says `template` about its one text input `word` (`said`). */
export const echoFlow = (template: string, field = 'word'): FlowDocument =>
  flow(
    [
      ['s', 'start', { variables: [textInput(field)] }],
      ['t', 'template-transform', { inputs: [{ name: field, selector: ['s', field] }], template }],
      ['e', 'end', { outputs: [{ name: 'said', selector: ['t', 'output'] }] }],
    ],
    [
      ['s', 't'],
      ['t', 'e'],
    ],
  );

/** The fake OpenAI-compatible provider, configured as the default tenant's `openai`. */
export async function modelProvider(h: Harness): Promise<FakeServer> {
  const fake = await fakeOpenAi();
  await configureProvider(h, 'openai', fake.baseUrl);
  return fake;
}

/** Publishes the app's draft as `version` (the owner). */
export async function publish(h: Harness, owner: { token: string; workspaceId: string }, appId: string, version: string): Promise<{ id: string; version: string }> {
  return expectOk(await h.call('POST', `/api/v1/console/apps/${appId}/publish`, { ...owner, body: { version } }));
}

/** Distributes the app on `platform` (the owner), serving `versionId` (default: the newest). */
export async function distribute(
  h: Harness,
  owner: { token: string; workspaceId: string },
  appId: string,
  platform: DistributionPlatform,
  versionId?: string,
): Promise<DistributionList> {
  return expectOk(await h.call('POST', DIST(appId), { ...owner, body: { platform, ...(versionId ? { version_id: versionId } : {}) } }));
}

export const platformOf = (list: DistributionList, platform: DistributionPlatform) => list.platforms.find((p) => p.platform === platform)!;

/** Cancels the app's distribution on `platform` (the owner). */
export async function cancel(h: Harness, owner: { token: string; workspaceId: string }, appId: string, platform: DistributionPlatform): Promise<DistributionList> {
  const list = expectOk(await h.call('GET', DIST(appId), owner)) as DistributionList;
  const id = platformOf(list, platform).distribution!.id;
  return expectOk(await h.call('DELETE', `${DIST(appId)}/${id}`, owner));
}

/** A WEB call as `token`'s user (no workspace header). */
export const web = (h: Harness, token: string, method: string, path: string, opts: { body?: unknown; query?: Record<string, string | number | undefined> } = {}) =>
  h.call(method, `${WEB}${path}`, { token, ...opts });

export function expectStatus(r: { status: number; body: unknown; raw: { body: string } }, status: number) {
  expect(r.status, r.raw.body.slice(0, 500)).toBe(status);
}
