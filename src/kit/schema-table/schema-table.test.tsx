import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { i18n, initI18n } from '../../i18n';
import { SchemaTable } from './schema-table';

beforeAll(async () => {
  Object.assign(Element.prototype, { hasPointerCapture: () => false, setPointerCapture: () => {}, releasePointerCapture: () => {}, scrollIntoView: () => {} });
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(cleanup);
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

const Row = z.object({
  id: z.string(),
  name: z.string().meta({ column: { order: 1, label: 'Name', sortable: true } }),
  state: z.enum(['success', 'failed']).meta({ widget: 'status', column: { order: 2, label: 'State' } }),
  note: z.string().meta({ column: { tooltipOf: 'state' } }),
  hidden: z.string().meta({ column: false }),
});
const rows = Array.from({ length: 3 }, (_, i) => ({ id: `r${i}`, name: `row ${i}`, state: i ? ('failed' as const) : ('success' as const), note: 'why', hidden: 'secret' }));

describe('SchemaTable', () => {
  it('renders the schema columns, a status badge and the actions, never column:false fields', () => {
    render(<SchemaTable schema={Row} rows={rows} actions={[{ id: 'x', label: 'Open', run: () => {} }]} />);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'State', 'Actions']);
    expect(screen.getAllByText('Failed')).toHaveLength(2);
    expect(screen.queryByText('secret')).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Open' })).toHaveLength(3);
  });

  it('asks the server to sort through the header', async () => {
    const onSortChange = vi.fn();
    render(<SchemaTable schema={Row} rows={rows} sort={{ id: 'name', desc: false }} onSortChange={onSortChange} />);
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'ascending');
    await userEvent.click(screen.getByRole('button', { name: /Name/ }));
    expect(onSortChange).toHaveBeenCalledWith({ id: 'name', desc: true });
  });

  it('shows the pager with its total and pages, and 80 px room below', async () => {
    const onPageChange = vi.fn();
    const { container } = render(<SchemaTable schema={Row} rows={rows} total={45} page={1} pageSize={20} onPageChange={onPageChange} />);
    expect(screen.getByText('Total 45')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(onPageChange).toHaveBeenCalledWith(3);
    expect((container.firstChild as HTMLElement).className).toMatch(/withPager/);
  });

  it('shows the empty state without a pager', () => {
    render(<SchemaTable schema={Row} rows={[]} total={0} page={1} pageSize={20} onPageChange={() => {}} emptyText="Nothing here" />);
    expect(screen.getByText('Nothing here')).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('runs a confirmed action only after the confirmation', async () => {
    const run = vi.fn();
    render(<SchemaTable schema={Row} rows={rows} actions={[{ id: 'del', label: 'Delete', danger: true, confirm: (r) => ({ title: `Delete ${r.name}?` }), run }]} />);
    await userEvent.click(within(screen.getAllByRole('row')[1]).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete row 0?' });
    expect(run).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(run).toHaveBeenCalledWith(rows[0]);
  });
});
