import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { showInspector as show, useInspectorTests } from '../../src/canvas/widgets/inspector.fixture';
import { DEFAULT_CODE, DEFAULT_PYTHON_CODE } from './manifest';

useInspectorTests();
// Radix Select uses pointer capture and scrollIntoView, which jsdom lacks.
beforeAll(() => {
  Object.assign(Element.prototype, { hasPointerCapture: () => false, setPointerCapture: () => {}, releasePointerCapture: () => {}, scrollIntoView: () => {} });
});

describe('code view', () => {
  it('switching to Python 3 swaps the untouched template; written code stays', async () => {
    const user = userEvent.setup();
    const { config, field, store, nodeId } = show('code');
    const language = within(field('language')).getByRole('combobox', { name: 'Language' });
    expect(language).toHaveTextContent('JavaScript');
    await user.click(language);
    await user.click(await screen.findByRole('option', { name: 'Python 3' }));
    expect(config().language).toBe('python3');
    expect(config().code).toBe(DEFAULT_PYTHON_CODE);
    await user.click(within(field('language')).getByRole('combobox', { name: 'Language' }));
    await user.click(await screen.findByRole('option', { name: 'JavaScript' }));
    expect(config().code).toBe(DEFAULT_CODE);

    // Written code is the builder's: switching leaves it, and the checklist asks for Python's main.
    store.updateConfig(nodeId, ['code'], 'function main() { return {} }');
    await user.click(within(field('language')).getByRole('combobox', { name: 'Language' }));
    await user.click(await screen.findByRole('option', { name: 'Python 3' }));
    expect(config()).toMatchObject({ language: 'python3', code: 'function main() { return {} }' });
    expect(await within(field('code')).findByText(/The code needs a main function \(def main/)).toBeInTheDocument();
    // Six choices in a Radix select: seconds on a loaded machine.
  }, 60_000);
});
