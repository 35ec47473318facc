import { cleanup, render, screen } from '@testing-library/react';
import { use } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { textStatsPlugin } from '../../../../plugins/examples/text-stats/manifest';
import { TraceTitleContext } from '../../../canvas/debug';
import { i18n, initI18n } from '../../../i18n';

// The log's traces name untitled nodes by their kind's title: an installed plugin's kinds too, as
// the editor knows them (unit-isolated: the installed packages are replaced by the example's kind).
vi.mock('../../../canvas/installed-plugins', () => ({ loadInstalledPlugins: async () => ({ key: 'weft.text-stats@x', plugins: [textStatsPlugin] }) }));
const { KindTitles } = await import('./log-details');

beforeAll(async () => {
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(cleanup);
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

function Probe({ kind }: { kind: string }) {
  const titleOf = use(TraceTitleContext);
  return <span data-testid={kind}>{titleOf?.(kind) ?? '(none)'}</span>;
}

describe('KindTitles', () => {
  it("titles built-in and installed plugins' kinds", async () => {
    render(
      <KindTitles>
        <Probe kind="start" />
        <Probe kind="text-stats" />
      </KindTitles>,
    );
    expect(screen.getByTestId('start').textContent).not.toBe('(none)');
    expect(await screen.findByText('Text statistics')).toBeTruthy();
  });
});
