/** One question and its answer: the written answer, the SQL, the chart and the result table. */
import { useTranslation } from 'react-i18next';
import type { GbiMessage } from '../../../../schemas/gbi';
import { Badge } from '../../../ui/badge';
import { ResultChart } from './result-chart';
import { DataDisplayPopup, ResultTable } from './result-table';
import s from './gbi.module.css';

export function GbiMessageView({ message }: { message: GbiMessage }) {
  const { t } = useTranslation(['portal', 'errors']);
  const { result, chart, error } = message;
  return (
    <>
      <div className={s.question}>{message.question}</div>
      <div className={s.answer} data-testid="gbi-answer" data-status={message.status}>
        {message.status !== 'ok' && (
          <div className={s.row}>
            <Badge variant="danger">{t(message.status === 'refused' ? 'gbi.refused' : 'gbi.failed')}</Badge>
            {error && <span className={s.error}>{t(`errors:codes.${error.code}`, { defaultValue: error.code })}</span>}
          </div>
        )}
        {message.answer && <div>{message.answer}</div>}
        {message.sql && (
          <details open={message.status !== 'ok'}>
            <summary className={s.muted}>{t('gbi.sql')}</summary>
            <pre className={s.sql} data-testid="gbi-sql">
              {message.sql}
            </pre>
          </details>
        )}
        {result && chart && <ResultChart chart={chart} result={result} />}
        {result &&
          (result.rows.length ? (
            <>
              <ResultTable columns={result.columns} rows={result.rows} />
              <div className={s.row}>
                <span className={s.muted}>{t('gbi.rows', { count: result.rows.length })}</span>
                {result.truncated && <span className={s.muted}>{t('gbi.truncated', { count: result.rows.length })}</span>}
                <DataDisplayPopup title={message.question} columns={result.columns} rows={result.rows} />
              </div>
            </>
          ) : (
            <span className={s.muted}>{t('gbi.noRows')}</span>
          ))}
      </div>
    </>
  );
}
