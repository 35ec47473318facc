import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { PortalApp } from '../../../../schemas/portal';
import { lazyWithReload } from '../../guards';
import { AppCard } from './app-card';
import { columnsFor, toRows } from './grid-layout';
import s from './discover.module.css';

/**
 * From this many apps on, the rows are virtualised (react-virtuoso renders the visible ones only).
 * It loads with the first list that long: most users see a few apps, and the portal's first load
 * stays without it.
 */
export const VIRTUAL_FROM = 48;

const VirtualRows = lazy(lazyWithReload(() => import('./virtual-rows')));

/** The width of an element, kept up to date (0 where ResizeObserver is missing: one column). */
function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(([entry]) => setWidth(entry.contentRect.width));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}

export interface AppGridProps {
  apps: readonly PortalApp[];
  /** The last row came into view (load the next page). */
  onEndReached?: () => void;
  /** Shown under the rows (a "loading more" line). */
  footer?: ReactNode;
}

/** The apps as rows of cards, as many per row as fit; long lists virtualised. */
export function AppGrid({ apps, onEndReached, footer }: AppGridProps) {
  const ref = useRef<HTMLDivElement>(null);
  const columns = columnsFor(useWidth(ref));
  const rows = useMemo(() => toRows(apps, columns), [apps, columns]);
  const renderRow = (row: readonly PortalApp[]) => (
    <div className={s.row} role="none" style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
      {row.map((app) => (
        <div key={app.id} role="listitem" className={s.cell}>
          <AppCard app={app} />
        </div>
      ))}
    </div>
  );
  const plain = (list: readonly (readonly PortalApp[])[]) => list.map((row) => <div key={row[0].id}>{renderRow(row)}</div>);
  return (
    <div ref={ref} className={s.grid} role="list" data-testid="portal-app-grid" data-columns={columns} data-virtual={apps.length > VIRTUAL_FROM || undefined}>
      {apps.length > VIRTUAL_FROM ? (
        <Suspense fallback={plain(rows.slice(0, 6))}>
          <VirtualRows rows={rows} renderRow={renderRow} onEndReached={onEndReached} />
        </Suspense>
      ) : (
        plain(rows)
      )}
      {footer}
    </div>
  );
}
