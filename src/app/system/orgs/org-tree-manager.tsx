import { ChevronDown, ChevronRight, FolderTree, Pencil, Plus, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PickerOrg } from '../../../../schemas/org';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { EmptyState } from '../../../ui/empty-state';
import { Skeleton } from '../../../ui/skeleton';
import { toast } from '../../../ui/toast';
import { Tooltip } from '../../../ui/tooltip';
import { LoadFailed, reportError, useLoad } from '../users/admin-kit';
import { useSystemApi } from '../users/system-api';
import { OrgNameDialog } from './org-name-dialog';
import { flattenOrgs, isEmptyOrg } from './org-tree';
import s from './orgs.module.css';
import { seededName, seededPath } from '../../../i18n/seeded';

export interface OrgTreeManagerProps {
  /** A super admin's chosen tenant; absent: the caller's own tenant. */
  tenantId?: string;
  /** Called after the tree changed (create, rename, delete). */
  onChanged?: () => void;
}

type Editing = { mode: 'create'; parent: PickerOrg | null } | { mode: 'rename'; org: PickerOrg } | null;

/**
 * The organisation tree of a tenant (GET /admin/orgs/tree) with add child, rename and delete (only an
 * empty organisation; the server has the last word and its refusal shows as a toast). The root
 * follows the tenant's name, so it only takes children.
 */
export function OrgTreeManager({ tenantId, onChanged }: OrgTreeManagerProps) {
  const { t } = useTranslation(['system', 'common']);
  const api = useSystemApi();
  const tree = useLoad((signal) => api.orgTree(tenantId ? { tenant_id: tenantId } : {}, { signal }), [api, tenantId]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  // The dialogs keep their subject while they animate closed.
  const [editing, setEditingState] = useState<Editing>(null);
  const [nameOpen, setNameOpen] = useState(false);
  const [deleting, setDeletingState] = useState<PickerOrg | null>(null);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const setEditing = (e: NonNullable<Editing>) => {
    setEditingState(e);
    setNameOpen(true);
  };
  const setDeleting = (org: PickerOrg) => {
    setDeletingState(org);
    setDeleteOpen(true);
  };
  const rows = useMemo(() => flattenOrgs(tree.data ?? [], collapsed), [tree.data, collapsed]);
  const root = tree.data?.[0] ?? null;

  const toggle = (id: string) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const changed = () => {
    tree.reload();
    onChanged?.();
  };

  const submitName = async (name: string) => {
    if (!editing) return;
    try {
      if (editing.mode === 'create') {
        const parent = editing.parent;
        await api.createOrg(parent ? { name, parentId: parent.id } : { name, parentId: null, ...(tenantId ? { tenant_id: tenantId } : {}) });
        if (parent) setCollapsed((c) => (c.has(parent.id) ? new Set([...c].filter((id) => id !== parent.id)) : c));
        toast.success(t('orgs.created'));
      } else {
        await api.renameOrg(editing.org.id, { name });
        toast.success(t('orgs.renamed'));
      }
      changed();
    } catch (e) {
      reportError(e);
      throw e;
    }
  };

  const askDelete = (org: PickerOrg) => {
    if (!isEmptyOrg(org)) {
      toast.error(t('orgs.notEmpty'));
      return;
    }
    setDeleting(org);
  };

  const remove = async () => {
    if (!deleting) return;
    try {
      await api.deleteOrg(deleting.id);
      toast.success(t('orgs.deleted'));
      changed();
    } catch (e) {
      reportError(e);
      throw e;
    }
  };

  let body;
  if (tree.status === 'error' && !tree.data) {
    body = <LoadFailed title={t('orgs.loadFailed')} onRetry={tree.reload} />;
  } else if (!tree.data) {
    body = (
      <div className={s.skeleton} aria-busy="true">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} height={20} width={`${70 - i * 10}%`} style={{ marginLeft: i === 0 ? 0 : 24 }} />
        ))}
      </div>
    );
  } else if (rows.length === 0) {
    body = <EmptyState size="sm" icon={<FolderTree aria-hidden="true" />} title={t('orgs.empty')} />;
  } else {
    body = (
      <ul className={s.tree} aria-label={t('orgs.label')} aria-busy={tree.status === 'loading' || undefined}>
        {rows.map(({ org, depth, isRoot }) => {
          const open = !collapsed.has(org.id);
          const hasChildren = org.children.length > 0;
          return (
            <li key={org.id} className={s.row} style={{ paddingLeft: 8 + depth * 20 }} data-org-id={org.id}>
              {hasChildren ? (
                <button
                  type="button"
                  className={s.toggle}
                  aria-expanded={open}
                  aria-label={open ? t('orgs.collapse', { name: seededName(org.name) }) : t('orgs.expand', { name: seededName(org.name) })}
                  onClick={() => toggle(org.id)}
                >
                  {open ? <ChevronDown aria-hidden="true" /> : <ChevronRight aria-hidden="true" />}
                </button>
              ) : (
                <span className={s.toggleSpace} aria-hidden="true" />
              )}
              <span className={s.name} title={seededPath(org.treeNames)}>
                {seededName(org.name)}
              </span>
              {isRoot && (
                <Tooltip content={t('orgs.rootHint')}>
                  <span className={s.rootTag} tabIndex={0}>
                    {t('orgs.root')}
                  </span>
                </Tooltip>
              )}
              <span className={s.count}>{t('orgs.members', { count: org.hasEmpNum })}</span>
              <span className={s.rowActions}>
                <Tooltip content={t('orgs.addChild')}>
                  <Button
                    size="sm"
                    variant="ghost"
                    iconOnly
                    aria-label={t('orgs.addChildOf', { name: seededName(org.name) })}
                    onClick={() => setEditing({ mode: 'create', parent: org })}
                  >
                    <Plus aria-hidden="true" />
                  </Button>
                </Tooltip>
                {isRoot ? null : (
                  <>
                    <Tooltip content={t('orgs.rename')}>
                      <Button
                        size="sm"
                        variant="ghost"
                        iconOnly
                        aria-label={t('orgs.renameOf', { name: seededName(org.name) })}
                        onClick={() => setEditing({ mode: 'rename', org })}
                      >
                        <Pencil aria-hidden="true" />
                      </Button>
                    </Tooltip>
                    <Tooltip content={t('orgs.delete')}>
                      <Button size="sm" variant="ghost" iconOnly aria-label={t('orgs.deleteOf', { name: seededName(org.name) })} onClick={() => askDelete(org)}>
                        <Trash2 aria-hidden="true" />
                      </Button>
                    </Tooltip>
                  </>
                )}
              </span>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <section className={s.manager} aria-label={t('orgs.title')}>
      <div className={s.head}>
        <p className={s.description}>{t('orgs.description')}</p>
        <Button variant="primary" icon={<Plus aria-hidden="true" />} disabled={!tree.data} onClick={() => setEditing({ mode: 'create', parent: root })}>
          {t('orgs.add')}
        </Button>
      </div>
      <div className={s.panel}>{body}</div>
      <OrgNameDialog
        open={nameOpen}
        onOpenChange={setNameOpen}
        mode={editing?.mode ?? 'create'}
        context={seededPath(editing?.mode === 'rename' ? editing.org.treeNames : (editing?.parent?.treeNames ?? ''))}
        initialName={editing?.mode === 'rename' ? editing.org.name : ''}
        onSubmit={submitName}
      />
      <ConfirmDialog
        open={deleteOpen}
        onOpenChange={setDeleteOpen}
        danger
        title={t('orgs.deleteTitle', { name: deleting?.name ?? '' })}
        description={t('orgs.deleteDescription')}
        confirmLabel={t('orgs.delete')}
        cancelLabel={t('common:actions.cancel')}
        onConfirm={remove}
      />
    </section>
  );
}
