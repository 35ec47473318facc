import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, describe, expect, it } from 'vitest';
import { i18n, initI18n } from '../../../i18n';
import { GbiMessageView } from './gbi-message';

afterAll(async () => {
  await i18n.changeLanguage('zh');
});

const message = {
  id: '7d0c6b1e-0000-4000-8000-000000000001',
  session_id: '7d0c6b1e-0000-4000-8000-000000000002',
  source_id: null,
  question: 'Total by region?',
  sql: 'select region, sum(amount) as total from sales group by region',
  status: 'ok' as const,
  answer: 'North leads.',
  result: { columns: [{ name: 'region', data_type: 'VARCHAR' }, { name: 'total', data_type: 'HUGEINT' }], rows: [['North', 150], ['South', 100]], truncated: false, elapsed_ms: 3 },
  chart: { kind: 'pie' as const, category: 0, values: [1] },
  error: null,
  created_at: new Date().toISOString(),
};

describe('a GBI answer', () => {
  it('renders the answer, the SQL, the table and the chart of a result', async () => {
    render(<GbiMessageView message={message} />);
    expect(screen.getByText('North leads.')).toBeTruthy();
    expect(screen.getByTestId('gbi-sql').textContent).toContain('select region');
  });

  it("opens the table popup, whose close button speaks the user's language", async () => {
    await initI18n('zh');
    await i18n.changeLanguage('zh');
    const user = userEvent.setup();
    render(<GbiMessageView message={message} />);
    await user.click(screen.getByRole('button', { name: '查看表格' }));
    const popup = await screen.findByTestId('gbi-data-popup');
    expect(popup.querySelector('button[aria-label="关闭"]')).not.toBeNull();
    expect(popup.querySelector('button[aria-label="Close"]')).toBeNull();
  });
});
