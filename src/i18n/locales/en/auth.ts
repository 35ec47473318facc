import type zh from '../zh/auth';

const auth: typeof zh = {
  login: {
    title: 'Sign in',
    subtitle: 'Sign in to build and manage your AI applications',
    tenant: 'Tenant',
    tenantPlaceholder: 'Choose a tenant',
    account: 'Account',
    accountPlaceholder: 'Enter your account',
    password: 'Password',
    passwordPlaceholder: 'Enter your password',
    showPassword: 'Show password',
    hidePassword: 'Hide password',
    submit: 'Sign in',
    version: 'Version {{version}}',
    sso: 'Sign in with {{provider}}',
    ssoDefaultProvider: 'single sign-on',
    ssoHint: 'You will be taken to your organisation\'s sign-in page',
    breakGlass: 'Administrator sign-in with account and password',
  },
  password: {
    title: 'Change password',
    description: 'After the change every session on every device ends; sign in again with the new password.',
    old: 'Current password',
    new: 'New password',
    confirm: 'Confirm new password',
    policy: '8 to 128 characters with at least one letter and one digit',
    submit: 'Change password',
    changed: 'Password changed. Sign in again with the new password',
  },
  validation: {
    passwordPolicy: 'The password needs 8 to 128 characters with at least one letter and one digit',
    passwordMismatch: 'The passwords entered twice are inconsistent',
    email: 'Enter a valid email address',
    phone: 'Enter a valid phone number',
  },
  profile: {
    subtitle: 'Manage your profile and your password',
    account: 'Account',
    tenant: 'Tenant',
    title: 'Profile',
    description: 'Your nickname shows in the top bar and in member lists.',
    nickname: 'Nickname',
    realName: 'Real name',
    email: 'Email',
    phone: 'Phone',
    avatar: 'Avatar URL',
    avatarHelp: 'An image address; leave empty to show your initials',
  },
};

export default auth;
