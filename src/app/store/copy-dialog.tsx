/**
 * The copy dialog (issue 23): choose the target project space (only those where the user may create
 * this kind), optionally a name, and, for an app, map each knowledge base or tool its flow uses to one of
 * the target space's (pre-filled by store origin or name from a dry run; "leave unset" leaves the node
 * for the checklist). After the copy it says what remains (unset references, a tool's authorization)
 * and links to the copy; a copied tool that needs authentication gets a credential of its space here.
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { SpaceStoreType, StoreCopyAnswer, StoreItemDetail } from '../../../schemas/store';
import type { Workspace } from '../../../schemas/workspace';
import { describeError } from '../../api/reactions';
import { Button, Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, Field, Input, Select, Spinner, toast } from '../../ui';
import { useStoreApi } from './store-api';
import { copyPath, CREATOR_ROLES } from './store-kinds';
import { ToolAuthorization } from './tool-authorization';
import s from './store.module.css';
import { seededName } from '../../i18n/seeded';

const UNSET = '__unset__';

export interface CopyDialogProps {
  type: SpaceStoreType;
  item: StoreItemDetail;
  open: boolean;
  onOpenChange(open: boolean): void;
  /** After a copy (the gallery's copy count goes up). */
  onCopied?(answer: StoreCopyAnswer): void;
}

export function CopyDialog({ type, item, open, onOpenChange, onCopied }: CopyDialogProps) {
  const { t } = useTranslation(['store', 'common']);
  const api = useStoreApi();
  const [spaces, setSpaces] = useState<Workspace[] | null>(null);
  const [target, setTarget] = useState('');
  const [name, setName] = useState(item.name);
  const [plan, setPlan] = useState<StoreCopyAnswer | null>(null);
  const [mapping, setMapping] = useState<Record<string, string | null>>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<StoreCopyAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setDone(null);
    setError(null);
    setName(item.name);
    api.spaces().then(
      (all) => {
        const mine = all.filter((w) => CREATOR_ROLES[type].includes(w.role_type));
        setSpaces(mine);
        setTarget((cur) => (mine.some((w) => w.id === cur) ? cur : (mine[0]?.id ?? '')));
      },
      () => setSpaces([]),
    );
  }, [api, open, type, item.name]);

  // An app's plan for the chosen space: what matches, what is left, and the choices.
  useEffect(() => {
    if (!open || type !== 'app' || !target) return;
    let live = true;
    setPlan(null);
    setMapping({});
    api.copy(type, { id: item.id, workspace_id: target, dry_run: true }).then(
      (p) => live && setPlan(p),
      (e: unknown) => live && setError(describeError(e)?.text ?? String(e)),
    );
    return () => {
      live = false;
    };
  }, [api, open, type, target, item.id]);

  const keyOf = (r: { kind: string; source_id: string }) => `${r.kind}:${r.source_id}`;
  const chosen = useMemo(() => {
    const out: Record<string, string | null> = {};
    for (const r of plan?.references ?? []) {
      const k = keyOf(r);
      out[k] = k in mapping ? mapping[k] : r.target_id;
    }
    return out;
  }, [plan, mapping]);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await api.copy(type, { id: item.id, workspace_id: target, name: name.trim() || undefined, mapping: type === 'app' ? chosen : {} });
      setDone(answer);
      onCopied?.(answer);
      toast.success(t('copy.done', { space: spaces?.find((w) => w.id === target)?.name ?? '' }));
    } catch (e) {
      setError(describeError(e)?.text ?? String(e));
    } finally {
      setBusy(false);
    }
  };

  const typeName = t(`types.${type}`);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="lg" data-testid="store-copy-dialog">
        <DialogHeader>
          <DialogTitle>{t('copy.title', { name: item.name })}</DialogTitle>
          {type === 'app' && <DialogDescription>{t('copy.mappingHelp')}</DialogDescription>}
        </DialogHeader>
        <DialogBody>
          {done ? (
            <div className={s.stack} data-testid="store-copy-done">
              <p>{t('copy.done', { space: spaces?.find((w) => w.id === done.workspace_id)?.name ?? '' })}: <strong>{done.name}</strong></p>
              {done.unresolved.length > 0 && <p className={s.note} data-testid="store-copy-unresolved">{t('copy.unresolved', { count: done.unresolved.length })}</p>}
              {done.needs_authorization && done.id && <ToolAuthorization workspaceId={done.workspace_id} toolId={done.id} auth={done.needs_authorization} />}
            </div>
          ) : spaces === null ? (
            <Spinner />
          ) : spaces.length === 0 ? (
            <p className={s.note}>{t('copy.noSpaces', { type: typeName })}</p>
          ) : (
            <div className={s.stack}>
              <Field label={t('copy.target')} required>
                <Select value={target} onValueChange={setTarget} placeholder={t('copy.targetPlaceholder')} aria-label={t('copy.target')} options={spaces.map((w) => ({ value: w.id, label: seededName(w.name) }))} />
              </Field>
              <Field label={t('copy.name')}>
                <Input value={name} maxLength={50} onChange={(e) => setName(e.target.value)} data-testid="store-copy-name" />
              </Field>
              {type === 'app' && (
                <section aria-label={t('copy.mapping')} data-testid="store-copy-mapping">
                  <h3 className={s.sectionTitle}>{t('copy.mapping')}</h3>
                  {!plan ? (
                    <Spinner label={t('copy.planning')} />
                  ) : plan.references.length === 0 ? (
                    <p className={s.note}>{t('detail.noReferences')}</p>
                  ) : (
                    plan.references.map((r) => {
                      const k = keyOf(r);
                      const value = chosen[k] ?? UNSET;
                      const by = k in mapping ? (mapping[k] ? 'mapping' : null) : r.matched_by;
                      return (
                        <div key={k} className={s.refRow} data-testid="store-copy-ref" data-ref={k}>
                          <div className={s.refName}>
                            <span>
                              {t(`detail.refKinds.${r.kind}`)}: <strong>{r.name || r.source_id}</strong>
                            </span>
                            <span className={s.factLabel}>{by ? t(`copy.matched.${by}`) : t('copy.unmatched')}</span>
                          </div>
                          <Select
                            size="sm"
                            value={value}
                            aria-label={t('copy.choose', { kind: t(`detail.refKinds.${r.kind}`) })}
                            onValueChange={(v) => setMapping((m) => ({ ...m, [k]: v === UNSET ? null : v }))}
                            options={[{ value: UNSET, label: t('copy.leaveUnset') }, ...r.options.map((o) => ({ value: o.id, label: o.name }))]}
                          />
                        </div>
                      );
                    })
                  )}
                </section>
              )}
              {error && (
                <p role="alert" className={s.note}>
                  {error}
                </p>
              )}
            </div>
          )}
        </DialogBody>
        <DialogFooter>
          {done ? (
            <>
              <Button onClick={() => onOpenChange(false)}>{t('common:actions.close' as never)}</Button>
              <Button variant="primary" asChild>
                <Link to={copyPath(type, done.workspace_id, done.id!, item.kind ?? undefined)} data-testid="store-copy-open">
                  {t('copy.open')}
                </Link>
              </Button>
            </>
          ) : (
            <>
              <Button onClick={() => onOpenChange(false)}>{t('common:actions.cancel')}</Button>
              <Button variant="primary" loading={busy} disabled={!target || (type === 'app' && !plan)} onClick={() => void submit()} data-testid="store-copy-submit">
                {t('copy.submit')}
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
