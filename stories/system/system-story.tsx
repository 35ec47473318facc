/**
 * Story plumbing for the system screens: the signed-in user goes into the session store, the in-memory
 * API replaces the real one, and a Toaster shows the messages.
 * Set per story: `parameters: { system: { me: tenantAdmin, fake: { users: 'none' } } }`.
 */
import type { Decorator } from '@storybook/react-vite';
import type { CurrentUser } from '../../schemas/auth';
import { useSession } from '../../src/app/session';
import { SystemApiProvider, type SystemApi } from '../../src/app/system/users/system-api';
import { Toaster } from '../../src/ui/toast';
import { createFakeSystemApi, superAdmin, type FakeOptions } from './fake-system-api';

export interface SystemStoryParams {
  me?: CurrentUser;
  fake?: FakeOptions;
}

const paramsOf = (parameters: Record<string, unknown>) => (parameters.system ?? {}) as SystemStoryParams;

/** A fresh fake API per story, and the session's user. */
export const systemLoader = async ({ parameters }: { parameters: Record<string, unknown> }) => {
  const { me = superAdmin, fake } = paramsOf(parameters);
  useSession.setState({ user: me, tenantId: me.tenant_id, accessToken: 'story-token' });
  return { systemApi: createFakeSystemApi(fake) };
};

export const withSystemApi: Decorator = (Story, { loaded }) => (
  <SystemApiProvider api={loaded.systemApi as SystemApi}>
    <div style={{ minHeight: 560 }}>
      <Story />
    </div>
    <Toaster />
  </SystemApiProvider>
);
