import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../../i18n';
import { ListPager } from './admin-kit';

// The pager the system lists share (users, role holders, tenants): hidden without rows, the admin page
// sizes, and a new page size going back to page 1.

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
