import { within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { optionLabels, pickOption, showInspector as show, useInspectorTests } from '../../src/canvas/widgets/inspector.fixture';

useInspectorTests();

describe('agent view', () => {
  it('add agent tools from tools and MCP servers, each switchable', async () => {
    const user = userEvent.setup();
    const { config, field } = show('agent');
    const add = await within(field('tools')).findByRole('combobox', { name: 'Add a tool' });
    // Functions of workspace tools and tools of MCP servers, both offered.
    // The first entry (value '') is the placeholder the trigger shows, no longer an option.
    expect(add).toHaveTextContent('Add a tool');
    expect(await optionLabels(user, add)).toEqual(['Weather / Current weather', 'Weather / Forecast', 'File server / read_file']);
    await pickOption(user, add, 'File server / read_file');
    expect(config().tools).toEqual([{ type: 'mcp', providerId: 'files', name: 'read_file', enabled: true }]);
    await user.click(within(field('tools')).getByRole('switch', { name: 'Use File server / read_file' }));
    expect(config().tools).toEqual([{ type: 'mcp', providerId: 'files', name: 'read_file', enabled: false }]);
  });
});
