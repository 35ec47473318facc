import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, screen, userEvent, within } from 'storybook/test';
import type { Language } from '../../src/i18n/resources';
import { LanguageSwitcher } from '../../src/app/shell/language-switcher';
import { PlatformSwitcher, platformsForRole } from '../../src/app/shell/platform-switcher';
import { TopBar, TopBarDivider } from '../../src/app/shell/top-bar';
import { UserMenu, type MenuUser } from '../../src/app/shell/user-menu';
import { WorkspaceSwitcher, type SwitcherWorkspace } from '../../src/app/shell/workspace-switcher';
import type { Theme } from '../../src/app/shell/theme';
import { withRouter } from './with-router';

const user: MenuUser = {
  id: 'u1',
  username: 'olivia.wang',
  nickname: 'Olivia',
  realName: 'Olivia Wang',
  avatar: '',
  role: 'super_admin',
  tenant_name: 'Weft Inc.',
};

const spaces: SwitcherWorkspace[] = [
  { id: 'w1', name: 'Research lab', icon: 'folder:blue' },
  { id: 'w2', name: 'Customer service', icon: 'bot:green' },
  { id: 'w3', name: 'Finance analytics', icon: 'chart:orange' },
];

interface BarArgs {
  onSignOut(): void;
  onSelectWorkspace(id: string): void;
  onLanguage(lng: Language): void;
}

/** The whole bar as the shell composes it, with the switchers' state kept locally. */
function Bar({ onSignOut, onSelectWorkspace, onLanguage }: BarArgs) {
  const [lng, setLng] = useState<Language>('en');
  const [theme, setTheme] = useState<Theme>('light');
  const [current, setCurrent] = useState('w1');
  return (
    <TopBar
      left={
        <>
          <PlatformSwitcher entries={platformsForRole('super_admin')} current="console" onSelect={() => undefined} />
          <TopBarDivider />
          <WorkspaceSwitcher
            workspaces={spaces}
            currentId={current}
            onSelect={(id) => {
              setCurrent(id);
              onSelectWorkspace(id);
            }}
            onShowAll={() => undefined}
          />
        </>
      }
      right={
        <>
          <LanguageSwitcher
            value={lng}
            onChange={(v) => {
              setLng(v);
              onLanguage(v);
            }}
          />
          <UserMenu user={user} theme={theme} onThemeChange={setTheme} onPersonalCenter={() => undefined} onChangePassword={() => undefined} onSignOut={onSignOut} />
        </>
      }
    />
  );
}

const meta = {
  title: 'Shell/Top bar',
  component: Bar,
  decorators: [withRouter],
  parameters: { layout: 'fullscreen' },
  args: { onSignOut: fn(), onSelectWorkspace: fn(), onLanguage: fn() },
} satisfies Meta<typeof Bar>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvasElement }) => {
    const bar = within(canvasElement);
    await expect(bar.getByTestId('top-bar')).toBeVisible();
    await expect(bar.getByTestId('workspace-switcher')).toHaveTextContent('Research lab');
  },
};

export const SwitchesWorkspace: Story = {
  play: async ({ canvasElement, args }) => {
    const bar = within(canvasElement);
    await userEvent.click(bar.getByTestId('workspace-switcher'));
    await userEvent.click(await screen.findByRole('menuitem', { name: /Customer service/ }));
    await expect(args.onSelectWorkspace).toHaveBeenCalledWith('w2');
    await expect(bar.getByTestId('workspace-switcher')).toHaveTextContent('Customer service');
  },
};

export const SwitchesLanguage: Story = {
  play: async ({ canvasElement, args }) => {
    const bar = within(canvasElement);
    await userEvent.click(bar.getByTestId('language-switcher'));
    await userEvent.click(await screen.findByTestId('language-option-zh'));
    await expect(args.onLanguage).toHaveBeenCalledWith('zh');
  },
};

export const SignsOut: Story = {
  play: async ({ canvasElement, args }) => {
    const bar = within(canvasElement);
    await userEvent.click(bar.getByTestId('user-menu-trigger'));
    await userEvent.click(await screen.findByTestId('sign-out'));
    await expect(args.onSignOut).toHaveBeenCalledOnce();
  },
};
