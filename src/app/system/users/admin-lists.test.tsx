import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../../i18n';
import { Table, TableBody, TableCell, TableRow } from '../../../ui/table';
import { ListPager, ListRows, type ListRowsProps } from './admin-kit';

// What the system lists share (users, role holders, tenants): the body's states (failure with retry,
// placeholders, empty, rows) and the pager (hidden without rows, a new page size going back to page 1).

beforeAll(async () => {
  Object.assign(Element.prototype, { hasPointerCapture: () => false, setPointerCapture: () => {}, releasePointerCapture: () => {}, scrollIntoView: () => {} });
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(cleanup);
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

describe('the system lists\' pager', () => {
  it('is not shown before the list has rows', () => {
    const { container } = render(<ListPager page={1} pageSize={20} total={undefined} onPage={vi.fn()} onPageSize={vi.fn()} />);
    expect(container.innerHTML).toBe('');
    render(<ListPager page={1} pageSize={20} total={0} onPage={vi.fn()} onPageSize={vi.fn()} />);
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('turns pages, and a new page size goes back to page 1', async () => {
    const user = userEvent.setup();
    const onPage = vi.fn();
    const onPageSize = vi.fn();
    render(<ListPager page={2} pageSize={20} total={45} onPage={onPage} onPageSize={onPageSize} />);
    expect(screen.getByRole('navigation', { name: 'Pagination' }).textContent).toContain('Total 45');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPage).toHaveBeenLastCalledWith(3);
    await user.click(screen.getByRole('combobox', { name: '20 / page' }));
    await user.click(await screen.findByRole('option', { name: '50 / page' }));
    expect(onPageSize).toHaveBeenCalledWith(50);
    expect(onPage).toHaveBeenLastCalledWith(1);
  });
});

describe('the system lists\' body', () => {
  const body = (props: Partial<ListRowsProps<string>>) =>
    render(
      <Table>
        <TableBody>
          <ListRows<string>
            list={{ status: 'ready', reload: vi.fn() }}
            items={undefined}
            columns={3}
            skeleton={{ rows: 4, first: 96, className: 'placeholder' }}
            empty={<span>Nothing here</span>}
            {...props}
          >
            {(items) => items.map((x) => (
              <TableRow key={x}>
                <TableCell>{x}</TableCell>
              </TableRow>
            ))}
          </ListRows>
        </TableBody>
      </Table>,
    );

  it('shows a failed first load with a retry, placeholders while loading, then the empty state or the rows', async () => {
    const reload = vi.fn();
    body({ list: { status: 'error', reload } });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(reload).toHaveBeenCalledTimes(1);
    cleanup();
    const { container } = body({ list: { status: 'loading', reload } });
    expect(container.querySelectorAll('tr.placeholder')).toHaveLength(4);
    expect(container.querySelectorAll('tr.placeholder td')).toHaveLength(12);
    cleanup();
    body({ items: [] });
    expect(screen.getByText('Nothing here').closest('td')?.colSpan).toBe(3);
    cleanup();
    // A reload that fails keeps the rows it had.
    body({ list: { status: 'error', reload }, items: ['ada', 'oscar'] });
    expect(screen.getAllByRole('row').map((r) => r.textContent)).toEqual(['ada', 'oscar']);
  });
});
