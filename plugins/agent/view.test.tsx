import { within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { showInspector as show, useInspectorTests } from '../../src/canvas/widgets/inspector.fixture';

useInspectorTests();

describe('agent view', () => {
  it('add agent tools from tools and MCP servers, each switchable', async () => {
    const user = userEvent.setup();
    const { config, field } = show('agent');
    const add = await within(field('tools')).findByRole('combobox', { name: 'Add a tool' });
    // Functions of workspace tools and tools of MCP servers, both offered.
    expect(within(add).getAllByRole('option').map((o) => o.textContent)).toEqual(['Add a tool', 'Weather / Current weather', 'Weather / Forecast', 'File server / read_file']);
    await user.selectOptions(add, 'mcp:files:read_file');
    expect(config().tools).toEqual([{ type: 'mcp', providerId: 'files', name: 'read_file', enabled: true }]);
    await user.click(within(field('tools')).getByRole('switch', { name: 'Use File server / read_file' }));
    expect(config().tools).toEqual([{ type: 'mcp', providerId: 'files', name: 'read_file', enabled: false }]);
  });
});
