/**
 * A list of public-API keys (an app's, or a project space's MCP keys): the live keys (masked, who
 * created them and when, last use, rate limit), creating one (name and an optional limit a minute) and
 * revoking one after a confirmation. A new key's secret is shown ONCE, in a dialog with a copy button
 * and a warning; closing it forgets the secret (it lives only in that dialog's state, never in the
 * list). Those who may not manage the keys see the list with the actions disabled and the reason.
 */
import { KeyRound, Plus, TriangleAlert, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_KEY_NAME_MAX, ApiKey, type ApiKeyCreated } from '../../../../../schemas/app-api';
import { isApiError } from '../../../../api/request';
import { SchemaTable, type RowAction } from '../../../../kit/schema-table';
import { CopyButton } from '../../../../kit/widgets/copy-button';
import { NumberInput } from '../../../../kit/widgets/number-input';
import { Button } from '../../../../ui/button';
import { Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../../ui/dialog';
import { Field } from '../../../../ui/field';
import { Input } from '../../../../ui/input';
import { toast } from '../../../../ui/toast';
import { reportError } from '../../../workspace/members/report-error';
import type { KeySource } from './api-tab-api';
import s from './api-tab.module.css';

const RATE_LIMIT_MAX = 100_000;

const COLUMNS = {
  name: { label: 'appapi:keys.fields.name', column: { order: 1, minWidth: 140 } },
  masked: { label: 'appapi:keys.fields.key', column: { order: 2, width: 200 } },
  rate_limit_per_minute: { label: 'appapi:keys.fields.rateLimit', column: { order: 3, width: 150, align: 'right' } },
  created_by_name: { label: 'appapi:keys.fields.createdBy', column: { order: 4, width: 130 } },
  created_at: { label: 'appapi:keys.fields.createdAt', widget: 'datetime', column: { order: 5, width: 160 } },
  last_used_at: { label: 'appapi:keys.fields.lastUsed', widget: 'datetime', column: { order: 6, width: 160 } },
} as const;

export interface ApiKeysProps {
  source: KeySource;
  canManage: boolean;
  /** Why the actions are disabled (default: owners and admins only). */
  reason?: string;
  /** Test ids start with it (default `key`: `key-create`, `key-row-<id>`, `key-secret`…). */
  testId?: string;
}

/** The create dialog: name and optional limit; answers the created key (with its secret) to `onCreated`. */
export function CreateKeyDialog({
  source,
  open,
  onOpenChange,
  onCreated,
  testId = 'key',
}: {
  source: KeySource;
  open: boolean;
  onOpenChange: (o: boolean) => void;
  onCreated: (key: ApiKeyCreated) => void;
  testId?: string;
}) {
  const { t } = useTranslation('appapi');
  const formId = `${testId}-create-form`;
  const [name, setName] = useState('');
  const [limit, setLimit] = useState<number | undefined>(undefined);
  const [errors, setErrors] = useState<{ name?: string; limit?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setName('');
    setLimit(undefined);
    setErrors({});
  }, [open]);

  async function submit() {
    const trimmed = name.trim();
    const next: typeof errors = {};
    if (!trimmed) next.name = t('keys.create.nameRequired');
    else if (trimmed.length > API_KEY_NAME_MAX) next.name = t('keys.create.nameTooLong', { max: API_KEY_NAME_MAX });
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > RATE_LIMIT_MAX)) next.limit = t('keys.create.limitRange', { max: RATE_LIMIT_MAX });
    setErrors(next);
    if (next.name || next.limit) return;
    setBusy(true);
    try {
      const created = await source.create({ name: trimmed, rate_limit_per_minute: limit ?? null });
      onOpenChange(false);
      onCreated(created);
    } catch (e) {
      if (isApiError(e)) setErrors({ form: e.msg || e.code });
      else reportError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !busy && onOpenChange(o)}>
      <DialogContent size="md" closeLabel={t('actions.cancel')} data-testid={`${testId}-create-dialog`}>
        <DialogHeader>
          <DialogTitle>{t('keys.create.title')}</DialogTitle>
        </DialogHeader>
        <DialogBody className={s.dialogBody}>
          <form
            id={formId}
            className={s.dialogBody}
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <Field label={t('keys.fields.name')} required error={errors.name} help={errors.name ? undefined : t('keys.create.nameHelp')}>
              <Input value={name} maxLength={API_KEY_NAME_MAX} autoFocus onChange={(e) => setName(e.target.value)} data-testid={`${testId}-name`} />
            </Field>
            <Field label={t('keys.fields.rateLimit')} error={errors.limit} help={errors.limit ? undefined : t('keys.create.limitHelp')}>
              <NumberInput value={limit} onChange={(v) => setLimit(v ?? undefined)} min={1} max={RATE_LIMIT_MAX} integer placeholder={t('keys.create.limitPlaceholder')} />
            </Field>
            {errors.form && (
              <p className={s.formError} role="alert">
                {errors.form}
              </p>
            )}
          </form>
        </DialogBody>
        <DialogFooter>
          <Button variant="secondary" disabled={busy} onClick={() => onOpenChange(false)}>
            {t('actions.cancel')}
          </Button>
          <Button variant="primary" type="submit" form={formId} loading={busy} data-testid={`${testId}-create-submit`}>
            {t('keys.create.submit')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/**
 * The new key's secret, shown once. It does not close on a click outside or Escape (a slip would lose
 * the key): only the explicit button, after which the secret is gone for good.
 */
export function SecretDialog({ created, onClose, testId = 'key' }: { created: ApiKeyCreated | null; onClose: () => void; testId?: string }) {
  const { t } = useTranslation('appapi');
  return (
    <Dialog open={created !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent size="md" hideClose onEscapeKeyDown={(e) => e.preventDefault()} onInteractOutside={(e) => e.preventDefault()} data-testid={`${testId}-secret-dialog`}>
        <DialogHeader>
          <DialogTitle>{t('keys.secret.title', { name: created?.name ?? '' })}</DialogTitle>
          <DialogDescription>{t('keys.secret.description')}</DialogDescription>
        </DialogHeader>
        <DialogBody className={s.dialogBody}>
          <p className={s.warning} role="alert">
            <TriangleAlert aria-hidden="true" />
            <span>{t('keys.secret.warning')}</span>
          </p>
          <div className={s.secretRow}>
            <Input readOnly value={created?.secret ?? ''} className={s.secret} aria-label={t('keys.secret.label')} onFocus={(e) => e.currentTarget.select()} data-testid={`${testId}-secret`} />
            <CopyButton text={created?.secret ?? ''} variant="primary" size="md" data-testid={`${testId}-secret-copy`} />
          </div>
        </DialogBody>
        <DialogFooter>
          <Button variant="secondary" onClick={onClose} data-testid={`${testId}-secret-done`}>
            {t('keys.secret.done')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** The keys: toolbar, table and the two dialogs. */
export function ApiKeys({ source, canManage, reason, testId = 'key' }: ApiKeysProps) {
  const { t } = useTranslation(['appapi', 'common']);
  const why = reason ?? t('keys.managersOnly');
  const [rows, setRows] = useState<ApiKey[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);

  const load = useCallback(() => {
    setFailed(false);
    source.list().then(setRows, (e) => {
      reportError(e);
      setFailed(true);
    });
  }, [source]);
  useEffect(load, [load]);

  const actions = useMemo<RowAction<ApiKey>[]>(
    () => [
      {
        id: 'revoke',
        label: t('keys.revoke'),
        icon: <Trash2 aria-hidden="true" />,
        danger: true,
        disabled: () => !canManage,
        confirm: (r) => ({ title: t('keys.confirmRevoke.title', { name: r.name }), description: t('keys.confirmRevoke.description'), confirmLabel: t('keys.revoke'), danger: true }),
        run: async (r) => {
          try {
            await source.revoke(r.id);
          } catch (e) {
            reportError(e);
            throw e;
          }
          toast.success(t('keys.revoked', { name: r.name }));
          load();
        },
      },
    ],
    [t, source, canManage, load],
  );

  return (
    <div className={s.keys} data-testid={`${testId}s`}>
      <div className={s.toolbar}>
        <p className={s.muted}>{canManage ? t('keys.help') : why}</p>
        <Button variant="primary" icon={<Plus aria-hidden="true" />} disabled={!canManage} title={canManage ? undefined : why} onClick={() => setCreating(true)} data-testid={`${testId}-create`}>
          {t('keys.create.open')}
        </Button>
      </div>
      <SchemaTable
        schema={ApiKey}
        include={Object.keys(COLUMNS)}
        overrides={COLUMNS}
        rows={failed ? [] : rows}
        error={failed}
        onRetry={load}
        emptyText={t('keys.empty')}
        actions={actions}
        rowProps={(row) => ({ 'data-testid': `${testId}-row-${row.id}` })}
        cells={{
          masked: ({ row }) => (
            <span className={s.masked}>
              <KeyRound aria-hidden="true" />
              {row.masked}
            </span>
          ),
          rate_limit_per_minute: ({ row }) => (row.rate_limit_per_minute === null ? t('keys.defaultLimit') : t('keys.perMinute', { count: row.rate_limit_per_minute })),
          last_used_at: ({ row, text }) => (row.last_used_at ? text : <span className={s.muted}>{t('keys.neverUsed')}</span>),
        }}
      />
      <CreateKeyDialog source={source} open={creating} onOpenChange={setCreating} onCreated={(k) => (setCreated(k), load())} testId={testId} />
      <SecretDialog created={created} onClose={() => setCreated(null)} testId={testId} />
    </div>
  );
}
