import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { CurrentUser } from '../../../../../schemas/auth';
import { DEFAULT_TENANT_ID } from '../../../../../schemas/common';
import { initI18n } from '../../../../i18n';
import { useSession } from '../../../session';
import { ModelMissing } from './builder-ai';

const user = (role: CurrentUser['role']): CurrentUser => ({
  id: '22222222-2222-4222-8222-222222222222',
  tenant_id: DEFAULT_TENANT_ID,
  tenant_name: 'Default',
  username: 'ann',
  nickname: 'Ann',
  realName: 'Ann',
  email: '',
  phone: '',
  avatar: '',
  role,
  status: 1,
});

function show(role: CurrentUser['role'], visible = true) {
  useSession.setState({ accessToken: 'tok', user: user(role) });
  const router = createMemoryRouter([{ path: '*', element: <ModelMissing visible={visible} /> }]);
  render(<RouterProvider router={router} />);
}

beforeAll(async () => {
  await initI18n('en');
});
afterEach(cleanup);

describe('ModelMissing (the AI helpers without a default model)', () => {
  it('tells an administrator what is missing and links to System › Models', () => {
    show('super_admin');
    expect(screen.getByTestId('builder-no-model')).toHaveTextContent('No default model is set');
    expect(screen.getByTestId('builder-no-model-link')).toHaveAttribute('href', '/operation/system/model');
  });

  it('tells anyone else whom to ask, without a link they could not follow', () => {
    show('user');
    expect(screen.getByTestId('builder-no-model')).toHaveTextContent('Ask an administrator');
    expect(screen.queryByTestId('builder-no-model-link')).toBeNull();
  });

  it('says nothing when the model is there', () => {
    show('super_admin', false);
    expect(screen.queryByTestId('builder-no-model')).toBeNull();
  });
});
