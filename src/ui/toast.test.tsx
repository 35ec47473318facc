import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Toaster } from './toast';

afterEach(cleanup);

describe('Toaster', () => {
  it("names its region with the label it is given (Radix's own default is English), the F8 hint after it", () => {
    render(<Toaster label="通知" closeLabel="关闭" />);
    expect(screen.getByRole('region', { name: '通知 (F8)' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /Notifications/ })).toBeNull();
  });
});
