import { within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { showInspector as show, useInspectorTests } from '../../src/canvas/widgets/inspector.fixture';

useInspectorTests();

describe('http-request view', () => {
  it('edit http headers with references in values', async () => {
    const user = userEvent.setup();
    const { config, field } = show('http-request');
    await user.click(within(field('headers')).getByRole('button', { name: 'Add row' }));
    await user.type(within(field('headers')).getByRole('textbox', { name: 'Key' }), 'X-Query');
    await user.type(within(field('headers')).getByRole('textbox', { name: 'Value' }), '/query_t');
    await user.keyboard('{Enter}');
    expect(config().headers).toEqual([{ key: 'X-Query', value: '{{#start.query_text#}}' }]);
  });

});
