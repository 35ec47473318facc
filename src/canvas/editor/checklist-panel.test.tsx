import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import { createNodeRegistry } from '../../plugin-sdk';
import { canvasPlugins, sampleFlow } from '../plugins.fixture';
import { createFlowStore } from '../store/create-flow-store';
import { FlowEditor } from './flow-editor';
import { stubBrowserForReactFlow } from './test-setup';

const registry = createNodeRegistry(canvasPlugins);

function setup() {
  const document = sampleFlow();
  const store = createFlowStore({ registry, mode: document.mode, document, freeze: false });
  render(
    <>
      <FlowEditor store={store} checklistDelayMs={0} />
      <input data-testid="outside-field" />
    </>,
  );
  fireEvent.click(screen.getByTestId('toolbar-checklist'));
  expect(screen.getByTestId('checklist-panel')).toBeInTheDocument();
  return store;
}

beforeAll(async () => {
  stubBrowserForReactFlow();
  await initI18n('en');
});
afterEach(cleanup);

describe('the checklist panel', () => {
  it('closes on Escape, but not while typing in a field', () => {
    setup();
    fireEvent.keyDown(screen.getByTestId('outside-field'), { key: 'Escape' });
    expect(screen.getByTestId('checklist-panel')).toBeInTheDocument();
    fireEvent.keyDown(screen.getByTestId('flow-editor'), { key: 'Escape' });
    expect(screen.queryByTestId('checklist-panel')).toBeNull();
  });

  it('closes on a click outside it, stays open on a click inside, and the toolbar button still toggles it', () => {
    setup();
    fireEvent.pointerDown(screen.getByTestId('checklist-panel'));
    expect(screen.getByTestId('checklist-panel')).toBeInTheDocument();
    // The toolbar button closes it by its own click (a pointerdown closing it first would reopen it).
    fireEvent.pointerDown(screen.getByTestId('toolbar-checklist'));
    fireEvent.click(screen.getByTestId('toolbar-checklist'));
    expect(screen.queryByTestId('checklist-panel')).toBeNull();
    fireEvent.click(screen.getByTestId('toolbar-checklist'));
    fireEvent.pointerDown(screen.getByTestId('flow-editor'));
    expect(screen.queryByTestId('checklist-panel')).toBeNull();
  });
});
