import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImportMessage, ImportReport } from '../../../schemas/app-import';
import { describeError } from '../../api/reactions';
import { isApiError } from '../../api/request';
import s from './import-report.module.css';

/**
 * What the server's import answered, shown the same way by the editor's import dialog and the apps
 * page's "Create from file": the node count, every Dify node it could not map (title and type) and
 * the import's notes; or why the file was refused. Messages are keys of the `dsl` namespace.
 */

/** The dialog body's layout (a column with the picker, then the report or the errors). */
export const importBodyClass = s.body;

/** Why an import was refused: the importer's `dsl` errors (`data.errors`), else the catalogue's text for the code. */
export interface ImportFailure {
  errors: ImportMessage[];
  message?: string;
}

export function importFailure(e: unknown): ImportFailure {
  const data = isApiError(e) ? (e.data as { errors?: unknown } | null) : null;
  const errors = Array.isArray(data?.errors) ? (data.errors as ImportMessage[]) : [];
  return errors.length ? { errors } : { errors, message: describeError(e, 'silent')?.text ?? String(e) };
}

const useDslText = () => {
  const { t } = useTranslation('dsl');
  return { t, msg: (m: ImportMessage) => (t as (k: string, o?: object) => string)(m.key, m.params) };
};

/** The report: `heading` then "N nodes imported", the unmapped nodes and the notes (test ids `${testId}-unmapped`, `-warnings`). */
export function ImportReportView({ report, heading, testId }: { report: ImportReport; heading: ReactNode; testId: string }) {
  const { t, msg } = useDslText();
  return (
    <div data-testid={testId}>
      <p>
        <strong>{heading}</strong> {t('summary.imported', { count: report.mapped })}
      </p>
      {report.unmapped.length > 0 && (
        <>
          <p>{t('summary.unmappedTitle', { count: report.unmapped.length })}</p>
          <ul className={s.list} data-testid={`${testId}-unmapped`}>
            {report.unmapped.map((u) => (
              <li key={u.id}>{t('summary.unmappedItem', { title: u.title || u.id, type: u.type })}</li>
            ))}
          </ul>
        </>
      )}
      {report.warnings.length > 0 && (
        <>
          <p>{t('summary.warningsTitle')}</p>
          <ul className={s.list} data-testid={`${testId}-warnings`}>
            {report.warnings.map((w, i) => (
              <li key={i}>{msg(w)}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** A refused file: `heading` and the reasons (an alert). */
export function ImportFailureView({ failure, heading, testId }: { failure: ImportFailure; heading: ReactNode; testId: string }) {
  const { msg } = useDslText();
  return (
    <div role="alert" data-testid={testId}>
      <p>
        <strong>{heading}</strong>
      </p>
      <ul className={s.list}>{failure.message ? <li>{failure.message}</li> : failure.errors.map((e, i) => <li key={i}>{msg(e)}</li>)}</ul>
    </div>
  );
}
