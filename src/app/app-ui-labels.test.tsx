import { act, cleanup, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { i18n, initI18n } from '../i18n';
import { Breadcrumb } from '../ui/breadcrumb';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { Dialog, DialogContent, DialogTitle } from '../ui/dialog';
import { Spinner } from '../ui/spinner';
import { AppUiLabels } from './app-ui-labels';

beforeAll(async () => {
  await initI18n('zh');
});
afterEach(cleanup);
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

/** Primitives given no words of their own, as the store copy and log details dialogs were (two modals: the
 * dialog's parts are aria-hidden behind the confirmation, hence `hidden: true`). */
function Screen() {
  return (
    <AppUiLabels>
      <Breadcrumb items={[{ label: 'x' }]} />
      <Spinner />
      <Dialog open>
        <DialogContent aria-describedby={undefined}>
          <DialogTitle>t</DialogTitle>
        </DialogContent>
      </Dialog>
      <ConfirmDialog open onOpenChange={() => {}} onConfirm={() => {}} title="c" />
    </AppUiLabels>
  );
}

describe("the ui kit's own words", () => {
  it('are in the current language where a caller passes none, and follow a language change', async () => {
    render(<Screen />);
    expect(screen.getByRole('button', { name: '关闭', hidden: true })).toBeTruthy();
    expect(screen.getByRole('button', { name: '取消', hidden: true })).toBeTruthy();
    expect(screen.getByRole('button', { name: '确认', hidden: true })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: '面包屑导航', hidden: true })).toBeTruthy();
    expect(screen.getByLabelText('加载中…', { selector: '[data-slot=spinner]' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Close', hidden: true })).toBeNull();

    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByRole('button', { name: 'Close', hidden: true })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel', hidden: true })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Breadcrumb', hidden: true })).toBeTruthy();
    expect(screen.getByLabelText('Loading…', { selector: '[data-slot=spinner]' })).toBeTruthy();
  });
});
