import { within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { pickOption, showInspector as show, useInspectorTests } from '../../src/canvas/widgets/inspector.fixture';

useInspectorTests();

describe('tool view', () => {
  it('pick a tool and then one of its functions', async () => {
    const user = userEvent.setup();
    const { config, field } = show('tool');
    const tool = await within(field('toolId')).findByRole('combobox', { name: 'Tool' });
    await pickOption(user, tool, 'Weather');
    await pickOption(user, within(field('toolId')).getByRole('combobox', { name: 'Tool function' }), /^current/i);
    expect(config()).toMatchObject({ toolId: 'weather', functionId: 'current' });
    // The function's parameters fill the params form, and are listed under the picker.
    expect(config().params).toEqual([
      { name: 'city', source: 'text', selector: [], text: '' },
      { name: 'units', source: 'text', selector: [], text: '' },
    ]);
    expect(within(field('params')).getAllByRole('textbox', { name: 'Variable name' }).map((e) => (e as HTMLInputElement).value)).toEqual(['city', 'units']);
    expect(within(field('toolId')).getByRole('list', { name: 'Parameters of the function' })).toHaveTextContent(/city.*string.*required.*City name/);
    // Another function: a shared parameter keeps its value, the others follow the function.
    await user.type(within(field('params')).getAllByRole('textbox', { name: 'Value' })[0], 'Paris');
    await pickOption(user, within(field('toolId')).getByRole('combobox', { name: 'Tool function' }), /^forecast/i);
    expect(config().params).toEqual([
      { name: 'city', source: 'text', selector: [], text: 'Paris' },
      { name: 'days', source: 'text', selector: [], text: '' },
    ]);
  });

});
