import { cleanup, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../i18n';
import { createNodeRegistry } from '../plugin-sdk';
import { builtinPlugins } from '../canvas/builtin-plugins';
import { FlowEditor } from '../canvas/editor/flow-editor';
import { stubBrowserForReactFlow } from '../canvas/editor/test-setup';
import { createFlowStore } from '../canvas/store/create-flow-store';
import { installLeaveHiding } from './leave-page';

const registry = createNodeRegistry(builtinPlugins);
let uninstall: () => void = () => {};

beforeAll(async () => {
  stubBrowserForReactFlow();
  await initI18n('en');
  // As main.tsx: at start-up, before the router renders and registers its own listeners.
  uninstall = installLeaveHiding();
});
afterEach(cleanup);
afterAll(() => uninstall());

/** The canvas area (React Flow and its panels): the flow editor's first child. */
const canvasArea = () => screen.getByTestId('flow-editor').firstElementChild as HTMLElement;

describe('leaving the page', () => {
  it("takes the canvas out of the layout before the router's pagehide listener reads window.scrollY, and puts it back when the page returns from the back-forward cache", () => {
    render(<FlowEditor store={createFlowStore({ registry, mode: 'workflow' })} checklistDelayMs={0} />);
    expect(canvasArea().querySelector('.react-flow')).not.toBeNull();
    // As react-router's ScrollRestoration: a plain listener registered after start-up (Chromium
    // calls a window's pagehide listeners in the order they were added, capture or not), whose
    // window.scrollY read makes the browser bring style and layout up to date.
    const seen: string[] = [];
    const router = () => seen.push(canvasArea().style.display);
    window.addEventListener('pagehide', router);
    try {
      window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }));
      expect(seen).toEqual(['none']);
      // A pageshow that is not a return from the cache (the first load) changes nothing.
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: false }));
      expect(canvasArea().style.display).toBe('none');
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
      expect(canvasArea().style.display).toBe('');
    } finally {
      window.removeEventListener('pagehide', router);
    }
  });
});
