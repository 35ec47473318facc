/**
 * Story plumbing for the plugin system pages (System › Tools, tool detail, Resources, plugin
 * detail): they call src/api/plugins.ts themselves, so the stories give the request layer a fake
 * `fetch` (./fake-plugin-server.ts) instead of injecting an API, put the signed-in user in the
 * session and the page under a router at its address.
 * Set per story: `parameters: { pluginPages: { me: tenantAdmin, path: '/operation/system/tool', fake: { fail: true } } }`.
 */
import type { Decorator } from '@storybook/react-vite';
import { useEffect } from 'react';
import { MemoryRouter } from 'react-router';
import type { CurrentUser } from '../../schemas/auth';
import { configureRequest } from '../../src/api/request';
import { useSession } from '../../src/app/session';
import { Toaster } from '../../src/ui/toast';
import { createFakePluginServer, type FakePluginServerOptions } from './fake-plugin-server';
import { superAdmin } from './fake-system-api';

export interface PluginPageStoryParams {
  me?: CurrentUser;
  /** The page's address (its query names the plugin or tool). */
  path?: string;
  fake?: FakePluginServerOptions;
}

const paramsOf = (parameters: Record<string, unknown>) => (parameters.pluginPages ?? {}) as PluginPageStoryParams;

/** A fresh fake server per story, and the session's user. */
export const pluginPageLoader = async ({ parameters }: { parameters: Record<string, unknown> }) => {
  const { me = superAdmin, fake } = paramsOf(parameters);
  useSession.setState({ user: me, tenantId: me.tenant_id, accessToken: 'story-token' });
  configureRequest({ fetch: createFakePluginServer(fake) });
  return {};
};

/** The real fetch again once the story is left (other stories' calls are their own). */
function RestoreFetch() {
  useEffect(() => () => configureRequest({ fetch: undefined }), []);
  return null;
}

export const withPluginPage: Decorator = (Story, { parameters }) => (
  <MemoryRouter initialEntries={[paramsOf(parameters).path ?? '/']}>
    <RestoreFetch />
    <div style={{ minHeight: 560 }}>
      <Story />
    </div>
    <Toaster />
  </MemoryRouter>
);
