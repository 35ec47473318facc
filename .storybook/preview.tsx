import type { Decorator, Preview } from '@storybook/react-vite';
import '../src/ui/tokens.css';
import '../src/ui/base.css';
import { configure } from 'storybook/test';
import { initI18n } from '../src/i18n';
import { installApiFixtures } from './api-fixtures';

// No story reaches for a server: screens that fetch get the fixtures' answers (api-fixtures.ts).
installApiFixtures();

// Stories run as tests on shared, loaded machines: give findBy*/waitFor room for dialog animations.
configure({ asyncUtilTimeout: 5000 });

type Theme = 'light' | 'dark';

/** The theme toolbar sets <html data-theme>, as the app does. */
const withTheme: Decorator = (Story, { globals }) => {
  const theme: Theme = globals.theme === 'dark' ? 'dark' : 'light';
  document.documentElement.dataset.theme = theme;
  return <Story />;
};

const preview: Preview = {
  globalTypes: {
    theme: {
      description: 'Colour theme',
      toolbar: {
        title: 'Theme',
        icon: 'mirror',
        items: [
          { value: 'light', title: 'Light', icon: 'sun' },
          { value: 'dark', title: 'Dark', icon: 'moon' },
        ],
        dynamicTitle: true,
      },
    },
    locale: {
      description: 'Language (i18next)',
      toolbar: {
        title: 'Language',
        icon: 'globe',
        items: [
          { value: 'zh', title: '中文' },
          { value: 'en', title: 'English' },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { theme: 'light', locale: 'zh' },
  // Runs before each story renders: the language is switched before any t() call.
  loaders: [
    async ({ globals }) => {
      await initI18n(globals.locale === 'en' ? 'en' : 'zh');
      return {};
    },
  ],
  decorators: [withTheme],
  parameters: {
    layout: 'padded',
    controls: { matchers: { color: /(background|color)$/i, date: /Date$/i } },
  },
};

export default preview;
