import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { optionLabels, pickOption, showInspector as show, useInspectorTests } from '../../src/canvas/widgets/inspector.fixture';

useInspectorTests();

describe('list-operator view', () => {
  it('filters a list of files by a property with the operators of its type, and sorts by a property', async () => {
    const user = userEvent.setup();
    const { config, field, store, nodeId } = show('list-operator');
    act(() => {
      store.updateConfig('start', ['variables'], [{ name: 'docs', label: 'Documents', type: 'file-list', required: true, options: [], allowed_extensions: [] }]);
      store.updateConfig(nodeId, ['variable'], ['start', 'docs']);
      store.updateConfig(nodeId, ['filterEnabled'], true);
      store.updateConfig(nodeId, ['sortEnabled'], true);
    });
    await user.click(within(field('filters')).getByRole('button', { name: 'Add condition' }));
    const property = within(field('filters')).getByRole('combobox', { name: 'File property 1' });
    expect(await optionLabels(user, property)).toEqual(['Name', 'Type', 'Extension', 'MIME type', 'Size', 'Transfer method', 'URL']);
    await pickOption(user, property, 'Extension');
    await pickOption(user, within(field('filters')).getByRole('combobox', { name: 'Operator of condition 1' }), 'is');
    await user.type(within(field('filters')).getByRole('textbox', { name: 'Value of condition 1' }), 'pdf');
    expect(config().filters).toEqual([{ key: 'extension', operator: 'is', value: 'pdf' }]);
    // Size is a number: its operators are the number comparisons.
    await pickOption(user, within(field('filters')).getByRole('combobox', { name: 'File property 1' }), 'Size');
    const ops = await optionLabels(user, within(field('filters')).getByRole('combobox', { name: 'Operator of condition 1' }));
    expect(ops).toContain('≥');
    expect(ops).not.toContain('starts with');
    expect(config().filters[0]).toMatchObject({ key: 'size' });
    await pickOption(user, within(field('sortKey')).getByRole('combobox', { name: 'Sort by' }), 'Size');
    expect(config().sortKey).toBe('size');
    expect(screen.queryByText('fields.sortKey')).toBeNull();
  });

  it('filters a list of texts by the item itself: no property to choose', async () => {
    const user = userEvent.setup();
    const { config, field, store, nodeId } = show('list-operator');
    act(() => {
      store.updateConfig('start', ['variables'], [{ name: 'tags', label: 'Tags', type: 'text', required: true, options: [], allowed_extensions: [] }]);
      store.updateConfig(nodeId, ['filterEnabled'], true);
    });
    await user.click(within(field('filters')).getByRole('button', { name: 'Add condition' }));
    expect(within(field('filters')).queryByRole('combobox', { name: 'File property 1' })).toBeNull();
    await pickOption(user, within(field('filters')).getByRole('combobox', { name: 'Operator of condition 1' }), 'starts with');
    await user.type(within(field('filters')).getByRole('textbox', { name: 'Value of condition 1' }), 'a');
    expect(config().filters).toEqual([{ key: '', operator: 'start with', value: 'a' }]);
  });
});
