/**
 * /operation/workspace/:workspace_id/tool/:toolId: one tool (spec 2, 3): its info, its functions
 * (custom and workflow tools) or the live tools of its MCP server with their switches, publish and
 * unpublish, and the published versions. Owner and admin change; every member reads.
 */
import { CloudOff, CloudUpload, Pencil, Plus, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import type { ToolDetail, ToolVersion } from '../../../../schemas/tool';
import type { MemberRole } from '../../../../schemas/workspace';
import { AppIcon } from '../../../kit/widgets/icon-picker';
import { StatusBadge } from '../../../kit/widgets/status-badge';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { Dialog, DialogBody, DialogContent, DialogFooter, DialogHeader, DialogTitle } from '../../../ui/dialog';
import { EmptyState } from '../../../ui/empty-state';
import { Field } from '../../../ui/field';
import { Input } from '../../../ui/input';
import { Spinner } from '../../../ui/spinner';
import { Textarea } from '../../../ui/textarea';
import { toast } from '../../../ui/toast';
import { Tooltip } from '../../../ui/tooltip';
import { Page, PageHeader } from '../../shell/page';
import { formatDateTime, reportError } from '../members/report-error';
import { PublishToStore } from '../../store/publish-to-store';
import { McpToolsPanel } from './mcp-tools-panel';
import { useToolApi } from './tool-api';
import s from './tools.module.css';
import { useCrumbName } from '../../shell/route-handle';
import { isApiError } from '../../../api/request';
import { missingText } from '../../../api/reactions';

export interface ToolDetailPageProps {
  workspaceId?: string;
  toolId?: string;
}

export default function ToolDetailPage(props: ToolDetailPageProps) {
  const { t } = useTranslation(['tools', 'common']);
  const api = useToolApi();
  const params = useParams();
  const navigate = useNavigate();
  const workspaceId = props.workspaceId ?? params.workspace_id ?? '';
  const toolId = props.toolId ?? params.toolId ?? '';
  const [tool, setTool] = useState<ToolDetail | null>(null);
  useCrumbName('tool', tool && { label: tool.name });
  /** Why the tool could not be loaded (shown instead of the page), null while it loads or once loaded. */
  const [failed, setFailed] = useState<string | null>(null);
  const [versions, setVersions] = useState<ToolVersion[]>([]);
  const [role, setRole] = useState<MemberRole | null>(null);
  const [dialog, setDialog] = useState<'publish' | 'edit' | 'delete' | null>(null);
  const [note, setNote] = useState('');
  const [edit, setEdit] = useState({ name: '', intro: '' });
  const [busy, setBusy] = useState(false);
  const base = `/operation/workspace/${workspaceId}/tool`;

  const load = useCallback(() => {
    api.get(workspaceId, toolId).then(
      (d) => {
        setTool(d);
        setFailed(null);
      },
      (e: unknown) => {
        setFailed((isApiError(e) && missingText(e.data)) || t('notFound'));
        reportError(e, 'page');
      },
    );
    api.versions(workspaceId, toolId).then(setVersions, () => setVersions([]));
  }, [api, workspaceId, toolId, t]);
  useEffect(load, [load]);
  useEffect(() => {
    api.getWorkspace(workspaceId).then((w) => setRole(w.role_type), reportError);
  }, [api, workspaceId]);

  const canChange = role === 'owner' || role === 'admin';

  async function run(action: () => Promise<unknown>, done?: string) {
    setBusy(true);
    try {
      await action();
      if (done) toast.success(done);
      setDialog(null);
      load();
    } catch (e) {
      reportError(e);
    } finally {
      setBusy(false);
    }
  }

  if (failed && !tool) return <Page><EmptyState title={failed} action={<Button onClick={() => navigate(base)}>{t('actions.back')}</Button>} /></Page>;
  if (!tool) return <Page><Spinner label={t('common:states.loading')} /></Page>;

  const functions = tool.type === 'mcp' ? null : tool.functions;
  return (
    <Page data-testid="tool-detail-page">
      <PageHeader
        leading={<AppIcon value={tool.icon} size={40} name={tool.name} />}
        title={
          <span className={s.headerLead}>
            {tool.name}
            <Badge variant="neutral">{t(`types.${tool.type}`)}</Badge>
            <StatusBadge value={tool.status} label={t(`statuses.${tool.status}`)} tones={{ published: 'success', draft: 'neutral' }} />
          </span>
        }
        description={tool.intro}
        actions={
          canChange && (
            <div className={s.headerActions}>
              <Button variant="secondary" icon={<Pencil aria-hidden="true" />} onClick={() => { setEdit({ name: tool.name, intro: tool.intro }); setDialog('edit'); }}>
                {t('actions.edit')}
              </Button>
              {tool.status === 'published' && (
                <Button variant="secondary" icon={<CloudOff aria-hidden="true" />} loading={busy} onClick={() => void run(() => api.unpublish(workspaceId, tool.id), t('done.unpublished'))}>
                  {t('actions.unpublish')}
                </Button>
              )}
              <Button variant="primary" icon={<CloudUpload aria-hidden="true" />} onClick={() => { setNote(''); setDialog('publish'); }}>
                {t('actions.publish')}
              </Button>
              {/* The store takes the published version; a workflow tool is shared as its app. */}
              {tool.status === 'published' && tool.type !== 'workflow' && <PublishToStore workspaceId={workspaceId} type="tool" sourceId={tool.id} name={tool.name} description={tool.intro} />}
              <Tooltip content={t('actions.delete')}>
                <Button variant="danger" iconOnly aria-label={t('actions.delete')} onClick={() => setDialog('delete')}>
                  <Trash2 aria-hidden="true" />
                </Button>
              </Tooltip>
            </div>
          )
        }
      />
      <div className={s.sections}>
        <Card className={s.section}>
          <h2 className={s.sectionTitle}>{t('detail.info')}</h2>
          <dl className={s.infoGrid}>
            <dt>{t('fields.type')}</dt>
            <dd>{t(`types.${tool.type}`)}</dd>
            <dt>{t('fields.installMethod')}</dt>
            <dd data-testid="tool-install-method">{t(`installMethods.${tool.install_method}`)}</dd>
            <dt>{t('fields.functionCount')}</dt>
            <dd>{tool.function_count}</dd>
            <dt>{t('fields.referenceCount')}</dt>
            <dd>{tool.reference_count}</dd>
            <dt>{t('fields.updatedAt')}</dt>
            <dd>{formatDateTime(tool.updated_at)}</dd>
            {tool.mcp_config && (
              <>
                <dt>{t('detail.mcpConfig')}</dt>
                <dd>
                  <pre className={s.pre}>{JSON.stringify(tool.mcp_config, null, 2)}</pre>
                </dd>
              </>
            )}
          </dl>
          {tool.type === 'workflow' && <p className={s.muted}>{t('detail.workflowNote')}</p>}
        </Card>

        {tool.type === 'mcp' && <McpToolsPanel workspaceId={workspaceId} tool={tool} canChange={canChange} onChanged={(n) => setTool({ ...tool, ...n })} />}

        {functions && (
          <Card className={s.section} data-testid="tool-functions">
            <div className={s.sectionHead}>
              <h2 className={s.sectionTitle}>{t('detail.functions')}</h2>
              {canChange && tool.type === 'custom' && (
                <Button size="sm" variant="secondary" icon={<Plus aria-hidden="true" />} onClick={() => navigate(`${base}/${tool.id}/capability/new`)}>
                  {t('actions.addFunction')}
                </Button>
              )}
            </div>
            {functions.length === 0 ? (
              <p className={s.muted}>{t('detail.noFunctions')}</p>
            ) : (
              <ul className={s.list}>
                {functions.map((fn) => (
                  <li key={fn.id} className={s.listItem}>
                    <span className={s.method}>{fn.method}</span>
                    <div className={s.listMain}>
                      <Link className={s.nameLink} to={`${base}/${tool.id}/capability/${fn.id}`}>
                        <span className={s.listTitle}>{fn.name}</span>
                      </Link>
                      <span className={s.muted}>{fn.description || fn.url}</span>
                    </div>
                    {!fn.enabled && <Badge variant="neutral">{t('detail.off')}</Badge>}
                  </li>
                ))}
              </ul>
            )}
          </Card>
        )}

        <Card className={s.section} data-testid="tool-versions">
          <h2 className={s.sectionTitle}>{t('detail.versions')}</h2>
          {versions.length === 0 ? (
            <p className={s.muted}>{t('detail.noVersions')}</p>
          ) : (
            <ul className={s.list}>
              {versions.map((v) => (
                <li key={v.id} className={s.listItem}>
                  <Badge variant={v.version === tool.published_version && tool.status === 'published' ? 'success' : 'neutral'}>{t('detail.version', { version: v.version })}</Badge>
                  <div className={s.listMain}>
                    <span>{v.note || '—'}</span>
                  </div>
                  <span className={s.muted}>{formatDateTime(v.created_at)}</span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>

      <Dialog open={dialog === 'publish' || dialog === 'edit'} onOpenChange={(o) => !o && setDialog(null)}>
        <DialogContent size="md" closeLabel={t('common:actions.close')}>
          <DialogHeader>
            <DialogTitle>{dialog === 'publish' ? t('detail.publishTitle') : t('actions.edit')}</DialogTitle>
          </DialogHeader>
          <DialogBody className={s.dialogBody}>
            {dialog === 'publish' ? (
              <Field label={t('detail.publishNote')}>
                <Textarea value={note} maxLength={500} onChange={(e) => setNote(e.target.value)} />
              </Field>
            ) : (
              <>
                <Field label={t('fields.name')} required error={edit.name.trim() ? undefined : t('required')}>
                  <Input value={edit.name} maxLength={50} onChange={(e) => setEdit({ ...edit, name: e.target.value })} />
                </Field>
                <Field label={t('fields.intro')}>
                  <Textarea value={edit.intro} maxLength={500} onChange={(e) => setEdit({ ...edit, intro: e.target.value })} />
                </Field>
              </>
            )}
          </DialogBody>
          <DialogFooter>
            <Button variant="secondary" onClick={() => setDialog(null)}>
              {t('actions.cancel')}
            </Button>
            {dialog === 'publish' ? (
              <Button variant="primary" loading={busy} onClick={() => void run(async () => {
                const r = await api.publish(workspaceId, tool.id, note.trim());
                toast.success(t('done.published', { version: r.published_version }));
              })}>
                {t('actions.publish')}
              </Button>
            ) : (
              <Button variant="primary" loading={busy} disabled={!edit.name.trim()} onClick={() => void run(() => api.update(workspaceId, { id: tool.id, name: edit.name.trim(), intro: edit.intro.trim() }), t('done.saved'))}>
                {t('actions.save')}
              </Button>
            )}
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={dialog === 'delete'}
        onOpenChange={(o) => !o && setDialog(null)}
        title={t('confirmDelete.title')}
        description={t('confirmDelete.description', { name: tool.name })}
        confirmLabel={t('actions.delete')}
        danger
        onConfirm={async () => {
          try {
            await api.remove(workspaceId, tool.id);
            toast.success(t('done.deleted'));
            navigate(base);
          } catch (e) {
            reportError(e);
          }
        }}
      />
    </Page>
  );
}
