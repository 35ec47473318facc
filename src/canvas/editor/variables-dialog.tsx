import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, Input } from '../../ui';
import { useFlowStoreApi } from '../react/use-flow-store-api';
import { RowSelect } from '../widgets/rows';
import { useStoredSecrets } from './stored-secrets';
import { CONVERSATION_VALUE_TYPES, ENV_TYPES, newRow, rowsOf, saveRows, validateRows, type RowError, type VariableList, type VariableRow } from './variables-logic';
import s from './editor.module.css';

export interface VariablesDialogProps {
  list: VariableList;
  open: boolean;
  onOpenChange(open: boolean): void;
}

/**
 * Edits the flow's environment variables (string, number, secret) or conversation variables (chat
 * modes): rows of name, type, value and description, saved into the document as one undo step.
 */
export function VariablesDialog({ list, open, onOpenChange }: VariablesDialogProps) {
  const { t } = useTranslation('flowtools');
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="xl" data-testid={`variables-dialog-${list}`} closeLabel={t('variables.cancel')}>
        <DialogHeader>
          <DialogTitle>{t(list === 'env' ? 'variables.envTitle' : 'variables.convTitle')}</DialogTitle>
          <DialogDescription>{t(list === 'env' ? 'variables.envHint' : 'variables.convHint')}</DialogDescription>
        </DialogHeader>
        {open && <VariablesForm list={list} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function VariablesForm({ list, onDone }: { list: VariableList; onDone(): void }) {
  const { t } = useTranslation('flowtools');
  const store = useFlowStoreApi();
  const readOnly = store.getState().readOnly;
  const stored = useStoredSecrets();
  const secretHint = (id: string) => (!stored ? t('variables.secretKeep') : stored.has(id) ? t('variables.secretStored') : t('variables.secretNotSet'));
  const [rows, setRows] = useState<VariableRow[]>(() => rowsOf(store.getState().document, list));
  const [tried, setTried] = useState(false);
  const errors = tried ? validateRows(rows) : {};
  const types = (list === 'env' ? ENV_TYPES : CONVERSATION_VALUE_TYPES).map((v) => ({ value: v, label: t(`variables.types.${v}`) }));
  const patch = (id: string, p: Partial<VariableRow>) => setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...p } : r)));
  const save = () => {
    setTried(true);
    if (Object.keys(validateRows(rows)).length) return;
    saveRows(store, list, rows);
    onDone();
  };
  return (
    <>
      <DialogBody>
        {rows.length === 0 ? (
          <p className={s.panelHint} role="note">
            {t('variables.empty')}
          </p>
        ) : (
          <table className={s.varTable}>
            <thead>
              <tr>
                <th>{t('variables.name')}</th>
                <th>{t('variables.type')}</th>
                <th>{t('variables.value')}</th>
                <th>{t('variables.description')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={r.id} data-testid={`variable-row-${i}`}>
                  <td>
                    <Input
                      value={r.name}
                      aria-label={t('variables.name')}
                      aria-invalid={Boolean(errors[r.id]?.name)}
                      readOnly={readOnly}
                      data-testid="variable-name"
                      onChange={(e) => patch(r.id, { name: e.target.value })}
                    />
                    <FieldError code={errors[r.id]?.name} />
                  </td>
                  <td>
                    <RowSelect
                      value={r.type}
                      options={types}
                      disabled={readOnly}
                      aria-label={t('variables.type')}
                      onChange={(type) => patch(r.id, { type, value: type === r.type ? r.value : '' })}
                    />
                  </td>
                  <td>
                    <Input
                      value={r.value}
                      type={r.type === 'secret' ? 'password' : 'text'}
                      autoComplete="off"
                      placeholder={r.type === 'secret' ? secretHint(r.id) : undefined}
                      data-secret={r.type === 'secret' ? (stored?.has(r.id) ? 'stored' : stored ? 'missing' : undefined) : undefined}
                      aria-label={t('variables.value')}
                      aria-invalid={Boolean(errors[r.id]?.value)}
                      readOnly={readOnly}
                      data-testid="variable-value"
                      onChange={(e) => patch(r.id, { value: e.target.value })}
                    />
                    <FieldError code={errors[r.id]?.value} />
                  </td>
                  <td>
                    <Input value={r.description} maxLength={500} aria-label={t('variables.description')} readOnly={readOnly} onChange={(e) => patch(r.id, { description: e.target.value })} />
                  </td>
                  <td>
                    {!readOnly && (
                      <Button variant="ghost" size="sm" iconOnly aria-label={t('variables.remove', { name: r.name || r.id })} onClick={() => setRows((rs) => rs.filter((x) => x.id !== r.id))}>
                        <Trash2 aria-hidden="true" />
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {!readOnly && (
          <Button variant="secondary" size="sm" data-testid="variable-add" onClick={() => setRows((rs) => [...rs, newRow(rs, list)])}>
            <Plus aria-hidden="true" />
            {t('variables.add')}
          </Button>
        )}
      </DialogBody>
      <DialogFooter>
        <Button variant="secondary" onClick={onDone}>
          {t('variables.cancel')}
        </Button>
        {!readOnly && (
          <Button variant="primary" data-testid="variables-save" onClick={save}>
            {t('variables.save')}
          </Button>
        )}
      </DialogFooter>
    </>
  );
}

function FieldError({ code }: { code?: NonNullable<RowError['name'] | RowError['value']> }) {
  const { t } = useTranslation('flowtools');
  return code ? <p className={s.fieldError}>{t(`variables.errors.${code}`)}</p> : null;
}
