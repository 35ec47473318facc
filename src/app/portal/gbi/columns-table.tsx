import type { ReactNode, TableHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import type { GbiColumn } from '../../../../schemas/gbi';
import s from './gbi.module.css';

export interface ColumnsTableProps extends TableHTMLAttributes<HTMLTableElement> {
  columns: GbiColumn[];
  /** Draws a column's business name or description (the describe page's inputs); its text by default. */
  described?(column: GbiColumn, key: 'business_name' | 'description'): ReactNode;
}

/** A source table's columns: name, type, business name, description and sample values (describe page, table page). */
export function ColumnsTable({ columns, described = (c, key) => c[key], ...props }: ColumnsTableProps) {
  const { t } = useTranslation(['portal']);
  return (
    <table className={s.grid} {...props}>
      <thead>
        <tr>
          <th>{t('gbi.column')}</th>
          <th>{t('gbi.type')}</th>
          <th>{t('gbi.businessName')}</th>
          <th>{t('gbi.description')}</th>
          <th>{t('gbi.samples')}</th>
        </tr>
      </thead>
      <tbody>
        {columns.map((c) => (
          <tr key={c.id}>
            <td>{c.name}</td>
            <td className={s.muted}>{c.data_type}</td>
            <td>{described(c, 'business_name')}</td>
            <td>{described(c, 'description')}</td>
            <td className={s.muted}>{c.sample_values.join(', ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
