/** The virtualised rows of discover (react-virtuoso against the window's scroll); see app-grid.tsx. */
import type { ReactNode } from 'react';
import { Virtuoso } from 'react-virtuoso';
import type { PortalApp } from '../../../../schemas/portal';

export interface VirtualRowsProps {
  rows: readonly (readonly PortalApp[])[];
  renderRow: (row: readonly PortalApp[]) => ReactNode;
  onEndReached?: () => void;
}

export default function VirtualRows({ rows, renderRow, onEndReached }: VirtualRowsProps) {
  return (
    <Virtuoso
      useWindowScroll
      data={rows}
      increaseViewportBy={400}
      computeItemKey={(_, row) => row[0]?.id ?? ''}
      itemContent={(_, row) => renderRow(row)}
      endReached={() => onEndReached?.()}
    />
  );
}
