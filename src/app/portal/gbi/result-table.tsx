/**
 * A query result as a virtualised table (react-virtuoso: up to the query limit of 1,000 rows), and
 * the spec's table-or-file-data-display popup showing it taller.
 */
import { Table2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TableVirtuoso } from 'react-virtuoso';
import type { GbiResult } from '../../../../schemas/gbi';
import { Button } from '../../../ui/button';
import { Dialog, DialogBody, DialogContent, DialogHeader, DialogTitle, DialogTrigger } from '../../../ui/dialog';
import s from './gbi.module.css';

type Cell = GbiResult['rows'][number][number];
const show = (v: Cell) => (v === null ? '' : String(v));

/** The header row and the box's borders, for the guess made before the rows are measured. */
const HEAD = 34;
/** The box's borders and a pixel of rounding: the measured height already holds the header row. */
const EDGE = 4;
const MAX_INLINE = 260;

export function ResultTable({ columns, rows, tall }: { columns: { name: string }[]; rows: Cell[][]; tall?: boolean }) {
  // The rows' real height once measured (a row is taller than a guess with the theme's font and
  // padding): a short result then shows whole, with no scrollbar; a long one scrolls at MAX_INLINE.
  const [listHeight, setListHeight] = useState<number | null>(null);
  return (
    <TableVirtuoso
      className={s.table}
      // A height the virtual list can measure (a class alone left it collapsed in Chromium).
      style={{ height: Math.min(tall ? Infinity : MAX_INLINE, listHeight === null ? HEAD + rows.length * 30 : listHeight + EDGE), maxHeight: tall ? '60vh' : undefined }}
      totalListHeightChanged={setListHeight}
      data={rows}
      components={{ Table: (props) => <table {...props} className={s.grid} /> }}
      fixedHeaderContent={() => (
        <tr>
          {columns.map((c) => (
            <th key={c.name}>{c.name}</th>
          ))}
        </tr>
      )}
      itemContent={(_, row) => row.map((v, i) => <td key={i}>{show(v)}</td>)}
      data-testid="gbi-result-table"
    />
  );
}

/** The table-or-file-data-display popup: the same rows in a large dialog. */
export function DataDisplayPopup({ title, columns, rows }: { title: string; columns: { name: string }[]; rows: Cell[][] }) {
  const { t } = useTranslation(['portal', 'common']);
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button size="sm" variant="ghost" icon={<Table2 aria-hidden="true" />}>
          {t('gbi.showAll')}
        </Button>
      </DialogTrigger>
      <DialogContent size="lg" closeLabel={t('common:actions.close')} data-testid="gbi-data-popup">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
        </DialogHeader>
        <DialogBody>
          <ResultTable columns={columns} rows={rows} tall />
        </DialogBody>
      </DialogContent>
    </Dialog>
  );
}
