/**
 * Start-up (spec 7.3): load /config.json and wait for it (the start-up texts load beside it), then the
 * request reactions, then render. Nothing is shown before the configuration is in.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { installReactions } from './api/reactions';
import { App } from './app/app';
import { loadConfig } from './app/config';
import { preloadRouteArea } from './app/router';
import { installLeaveHiding } from './app/leave-page';
import { i18n, initI18n } from './i18n';
import { STARTUP_NAMESPACES } from './i18n/startup';

async function start(container: HTMLElement) {
  const root = createRoot(container);
  // The console's route table (its own chunk) loads beside the configuration, not after it.
  preloadRouteArea(window.location.pathname);
  // The console's and the portal's texts load with their routes (router.tsx).
  const texts = initI18n(undefined, { namespaces: STARTUP_NAMESPACES });
  try {
    await loadConfig();
  } catch (e) {
    console.error('Weft: /config.json could not be loaded', e);
    await texts;
    root.render(<StartupFailure />);
    return;
  }
  await texts;
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

// Before the router adds its pagehide listener: big screens leave the layout first (leave-page.ts).
installLeaveHiding();
const container = document.getElementById('root');
if (container) void start(container);
