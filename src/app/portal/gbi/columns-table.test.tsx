import { cleanup, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { i18n, initI18n } from '../../../i18n';
import type { GbiColumn } from '../../../../schemas/gbi';
import { ColumnsTable } from './columns-table';

// The columns table of the describe page (inputs for the words) and the table page (the words as text).

const columns = [
  { id: 'c1', name: 'amount', data_type: 'numeric', business_name: 'Amount', description: 'Order total', sample_values: ['12.5', '7'] },
  { id: 'c2', name: 'region', data_type: 'text', business_name: '', description: '', sample_values: [] },
] as unknown as GbiColumn[];

beforeAll(async () => {
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(cleanup);
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent);

describe('the GBI columns table', () => {
  it('shows each column with its type, words and sample values', () => {
    render(<ColumnsTable columns={columns} data-testid="cols" />);
    const [head, first, second] = within(screen.getByTestId('cols')).getAllByRole('row');
    expect(within(head!).getAllByRole('columnheader')).toHaveLength(5);
    expect(cells(first!)).toEqual(['amount', 'numeric', 'Amount', 'Order total', '12.5, 7']);
    expect(cells(second!)).toEqual(['region', 'text', '', '', '']);
  });

  it('draws the words as the caller says (the describe page\'s inputs)', () => {
    render(<ColumnsTable columns={columns} described={(c, key) => <input aria-label={`${c.name} ${key}`} defaultValue={c[key]} />} />);
    expect(screen.getByRole('textbox', { name: 'amount description' })).toHaveProperty('value', 'Order total');
    expect(screen.getAllByRole('textbox')).toHaveLength(4);
  });
});
