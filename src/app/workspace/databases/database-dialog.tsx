import { CircleCheck, CircleX, PlugZap } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  DatabaseCreateBody,
  DatabaseUpdateBody,
  DEFAULT_PORTS,
  type CheckResult,
  type Database,
  type DatabaseCheckBody,
  type DatabaseType,
} from '../../../../schemas/database';
import { prepareValues, registerMessageKeys, SchemaForm, useSchemaForm, type ObjectSchema } from '../../../kit/schema-form';
import { Button } from '../../../ui/button';
import { Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../ui/dialog';
import { toast } from '../../../ui/toast';
import { reportError } from '../members/report-error';
import { isApiError } from '../../../api/request';
import { ErrorCode } from '../../../../schemas/errors';
import { useDatabaseApi } from './database-api';
import s from './databases-page.module.css';

// The schema's own sentences (the server answers with the same ones) → this screen's keys.
registerMessageKeys({
  'The port must be between 1 and 65535': 'database:messages.port',
  'Enter a host name or an IP address (no scheme, path or port)': 'database:messages.host',
  'The SID is required for Oracle': 'database:messages.sidRequired',
  'The SID applies to Oracle only': 'database:messages.sidOracleOnly',
  'The SID may hold letters, digits and _ $ # . only': 'database:messages.sidChars',
  'Oracle is reached by SID; leave the database empty': 'database:messages.oracleNoDatabase',
  'The database name must not contain spaces, quotes, backslashes or semicolons': 'database:messages.databaseChars',
  'Database query upper limit 1 to 1000': 'database:messages.queryLimit',
});

/**
 * The edit form: the update body leaves fields out to keep them, but the form always sends them all,
 * so it marks required and offers no clear button where the new form does not (issue 28).
 */
const DatabaseEditForm = DatabaseUpdateBody.extend({
  name: DatabaseCreateBody.shape.name,
  type: DatabaseCreateBody.shape.type,
  host: DatabaseCreateBody.shape.host,
  account: DatabaseCreateBody.shape.account,
});

/** The fields a connection check reads. */
const CONNECTION = ['type', 'host', 'port', 'account', 'password', 'database', 'sid'] as const;

export interface DatabaseDialogProps {
  workspaceId: string;
  /** null: closed; 'new': add; a row: edit it. */
  target: Database | 'new' | null;
  onClose: () => void;
  onSaved: () => void;
}

/** Add or edit a database, with a "check connection" button that tries the settings on the form. */
export function DatabaseDialog({ workspaceId, target, onClose, onSaved }: DatabaseDialogProps) {
  const { t } = useTranslation(['database', 'common', 'kit']);
  const editing = target !== null && target !== 'new' ? target : null;
  return (
    <Dialog open={target !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent size="lg" closeLabel={t('common:actions.close')} data-testid="database-dialog">
        <DialogHeader>
          <DialogTitle>{editing ? t('dialog.edit') : t('dialog.create')}</DialogTitle>
          <DialogDescription>{t('page.description')}</DialogDescription>
        </DialogHeader>
        {target !== null && <DatabaseForm key={editing?.id ?? 'new'} workspaceId={workspaceId} editing={editing} onClose={onClose} onSaved={onSaved} />}
      </DialogContent>
    </Dialog>
  );
}

function DatabaseForm({ workspaceId, editing, onClose, onSaved }: { workspaceId: string; editing: Database | null } & Pick<DatabaseDialogProps, 'onClose' | 'onSaved'>) {
  const { t } = useTranslation(['database', 'common', 'kit']);
  const api = useDatabaseApi();
  const schema: ObjectSchema = editing ? DatabaseEditForm : DatabaseCreateBody;
  const form = useSchemaForm(schema, {
    defaultValues: editing
      ? {
          id: editing.id,
          name: editing.name,
          type: editing.type,
          host: editing.host,
          port: editing.port,
          account: editing.account,
          password: editing.password,
          database: editing.database,
          sid: editing.sid,
          remark: editing.remark,
          query_limit: editing.query_limit,
        }
      : { type: 'postgresql' },
  });
  const type = useWatch({ control: form.form.control, name: 'type' }) as DatabaseType | undefined;
  const [checking, setChecking] = useState(false);
  const [result, setResult] = useState<CheckResult | null>(null);
  // A result belongs to the settings it was made with: editing any of them clears it.
  const connection = JSON.stringify(useWatch({ control: form.form.control, name: [...CONNECTION] }));
  useEffect(() => setResult(null), [connection]);

  const check = async () => {
    setResult(null);
    const visible = form.fields.filter((f) => (CONNECTION as readonly string[]).includes(f.name));
    if (!(await form.form.trigger(visible.map((f) => f.name)))) return;
    // Fields hidden by the type (SID unless Oracle, database for Oracle) go back to empty first.
    const { values } = prepareValues(form.form.getValues(), form.fields);
    const body: Record<string, unknown> = editing ? { id: editing.id } : {};
    for (const k of CONNECTION) if (values[k] !== undefined && !(k === 'port' && values[k] === null)) body[k] = values[k];
    setChecking(true);
    try {
      setResult(await api.check(workspaceId, body as DatabaseCheckBody));
    } catch (e) {
      // The network policy's refusal is the check's answer, shown where the outcomes are.
      if (isApiError(e) && e.code === ErrorCode.NETWORK_NOT_ALLOWED) return setResult({ status: 'failed', code: 'not_allowed', message: e.msg, detail: '', elapsed_ms: 0 });
      reportError(e);
    } finally {
      setChecking(false);
    }
  };

  const submitting = form.form.formState.isSubmitting;
  const formId = `database-form-${editing?.id ?? 'new'}`;
  return (
    <>
      <DialogBody>
        <SchemaForm
          form={form}
          id={formId}
          ns="database"
          hideFooter
          widgetProps={{
            port: { placeholder: type ? t('defaultPort', { port: DEFAULT_PORTS[type] }) : undefined },
            password: editing ? { onReveal: () => api.password(workspaceId, editing.id) } : {},
          }}
          onSubmit={async (v) => {
            if (editing) await api.update(workspaceId, v as never);
            else await api.create(workspaceId, v as never);
            toast.success(editing ? t('done.updated') : t('done.created'));
            onSaved();
          }}
        />
      </DialogBody>
      {/* Outside the scrolling body: the outcome and the buttons stay in view. */}
      {result && <CheckOutcome result={result} />}
      <DialogFooter className={s.footer}>
        <Button icon={<PlugZap aria-hidden="true" />} loading={checking} disabled={submitting} onClick={() => void check()} data-testid="database-check">
          {t('check.button')}
        </Button>
        <span className={s.spacer} />
        <Button onClick={onClose} disabled={submitting}>
          {t('kit:form.cancel')}
        </Button>
        <Button type="submit" form={formId} variant="primary" loading={submitting}>
          {t('kit:form.save')}
        </Button>
      </DialogFooter>
    </>
  );
}

/**
 * The outcome of a connection check, said once: translated by its code (the server's English
 * sentence says the same; only the catch-all code of older checks shows the server's words).
 */
export function CheckOutcome({ result }: { result: CheckResult }) {
  const { t } = useTranslation('database');
  const ok = result.status === 'success';
  return (
    <div className={s.outcome} data-status={result.status} role="status" data-testid="database-check-result">
      {ok ? <CircleCheck aria-hidden="true" /> : <CircleX aria-hidden="true" />}
      <div>
        <p className={s.outcomeTitle}>{ok ? t('check.success', { ms: result.elapsed_ms }) : `${t('check.failed')}: ${t(`check.codes.${result.code}`)}`}</p>
        {!ok && result.code === 'error' && <p className={s.outcomeMessage}>{result.detail || result.message}</p>}
      </div>
    </div>
  );
}
