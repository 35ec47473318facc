/**
 * Start-up (spec 7.3): load /config.json and wait for it, then i18n, then the request reactions, then
 * render. Nothing is shown before the configuration is in.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { installReactions } from './api/reactions';
import { App } from './app/app';
import { loadConfig } from './app/config';
import { i18n, initI18n } from './i18n';

async function start(container: HTMLElement) {
  const root = createRoot(container);
  try {
    await loadConfig();
  } catch (e) {
    console.error('Weft: /config.json could not be loaded', e);
    await initI18n();
    root.render(<StartupFailure />);
    return;
  }
  await initI18n();
  installReactions();
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

/** The only screen that can show without the configuration: a plain message and a reload button. */
function StartupFailure() {
  return (
    <div role="alert" style={{ padding: 24, fontSize: 14, lineHeight: 1.6 }}>
      <p>{i18n.t('common:startup.configFailed')}</p>
      <button type="button" onClick={() => window.location.reload()}>
        {i18n.t('common:actions.reload')}
      </button>
    </div>
  );
}

const container = document.getElementById('root');
if (container) void start(container);
