import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { showInspector as show, useInspectorTests } from '../../src/canvas/widgets/inspector.fixture';

useInspectorTests();

describe('document-extractor view', () => {
  it('offers only file variables (a file or a list of files) and says what the output will be', async () => {
    const user = userEvent.setup();
    const { config, field, store } = show('document-extractor');
    act(() =>
      store.updateConfig('start', ['variables'], [
        { name: 'query_text', label: 'Question', type: 'text', required: true, options: [], allowed_extensions: [] },
        { name: 'contract', label: 'Contract', type: 'file', required: true, options: [], allowed_extensions: [] },
      ]),
    );
    await user.click(within(field('variable')).getByRole('button', { name: 'File variable' }));
    const options = within(screen.getByRole('listbox', { name: 'Available variables' })).getAllByRole('option');
    const labels = options.map((o) => o.textContent ?? '');
    expect(labels.some((l) => l.includes('contract'))).toBe(true);
    expect(labels.some((l) => l.includes('query_text'))).toBe(false);
    await user.click(options.find((o) => o.textContent?.includes('contract'))!);
    expect(config().variable).toEqual(['start', 'contract']);
    expect(field('variable')).toHaveTextContent('Output: one text for this file');
  });
});
