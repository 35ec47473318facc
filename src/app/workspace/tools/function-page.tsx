/**
 * /operation/workspace/:workspace_id/tool/:toolId/capability/:capabilityId: one function of a tool
 * (spec 3 "Tool function"): name, description, method, URL, auth (none, API key in a header or the
 * query, bearer, basic; the secret from a credential), the four parameter tables (src/kit/param-table)
 * and a test panel. `capabilityId` `new` adds a function. Owner and admin save; every member tests.
 */
import { Save, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { BodySubtype, ParamRow } from '../../../../schemas/parameter';
import { AUTH_TYPES, FunctionCreateBody, HTTP_METHODS, type ToolAuth, type ToolDetail, type ToolFunction } from '../../../../schemas/tool';
import type { MemberRole } from '../../../../schemas/workspace';
import { isApiError } from '../../../api/request';
import { ParamTable, type ParamIssue } from '../../../kit/param-table';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { cn } from '../../../ui/cn';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { Field } from '../../../ui/field';
import { Input } from '../../../ui/input';
import { Select } from '../../../ui/select';
import { Spinner } from '../../../ui/spinner';
import { Switch } from '../../../ui/switch';
import { Textarea } from '../../../ui/textarea';
import { toast } from '../../../ui/toast';
import { EmptyState } from '../../../ui/empty-state';
import { Page, PageHeader } from '../../shell/page';
import { reportError } from '../members/report-error';
import { FunctionTestPanel } from './function-test-panel';
import { useToolApi, type Choice } from './tool-api';
import s from './tools.module.css';
import { useCrumbName } from '../../shell/route-handle';
import { missingText } from '../../../api/reactions';

type Draft = Omit<ToolFunction, 'id' | 'tool_id' | 'created_at' | 'updated_at'>;
type Tables = 'params' | 'headers' | 'body' | 'response';

const EMPTY: Draft = { name: '', description: '', method: 'GET', url: '', auth: { type: 'none' }, params: [], headers: [], body: [], body_subtype: 'json', response: [], enabled: true };

/** The editable fields of a saved function (what a create or update body carries). */
function draftOf(fn: ToolFunction): Draft {
  const { id: _id, tool_id: _tool, created_at: _c, updated_at: _u, ...draft } = fn;
  return draft;
}

export interface FunctionPageProps {
  workspaceId?: string;
  toolId?: string;
  functionId?: string;
}

export default function FunctionPage(props: FunctionPageProps) {
  const { t } = useTranslation(['tools', 'common', 'errors']);
  const api = useToolApi();
  const params = useParams();
  const navigate = useNavigate();
  const workspaceId = props.workspaceId ?? params.workspace_id ?? '';
  const toolId = props.toolId ?? params.toolId ?? '';
  const functionId = props.functionId ?? params.capabilityId ?? 'new';
  const isNew = functionId === 'new';
  const [tool, setTool] = useState<ToolDetail | null>(null);
  const [saved, setSaved] = useState<ToolFunction | null>(null);
  useCrumbName('tool', tool && { label: tool.name });
  useCrumbName('function', saved && { label: saved.name });
  const [draft, setDraft] = useState<Draft>(EMPTY);
  /** Why the function could not be loaded (shown instead of the editor), null while fine. */
  const [failed, setFailed] = useState<string | null>(null);
  const [role, setRole] = useState<MemberRole | null>(null);
  const [credentials, setCredentials] = useState<Choice[]>([]);
  const [issues, setIssues] = useState<Partial<Record<Tables, ParamIssue[]>>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);

  useEffect(() => {
    api.get(workspaceId, toolId).then(
      (d) => {
        setTool(d);
        const fn = isNew ? null : d.functions.find((x) => x.id === functionId);
        if (!isNew && !fn) {
          // Found missing here, not by the server: told the way an id page tells a missing record (spec 6).
          const missing = t('errors:missing.function');
          setFailed(missing);
          toast.error(t('errors:unauthorizedOperation'), { description: missing });
        }
        setSaved(fn ?? null);
        setDraft(fn ? draftOf(fn) : { ...EMPTY, auth: d.auth });
      },
      (e: unknown) => {
        setFailed((isApiError(e) && missingText(e.data)) || t('notFound'));
        reportError(e, 'page');
      },
    );
    api.getWorkspace(workspaceId).then((w) => setRole(w.role_type), reportError);
    api.credentials(workspaceId).then(setCredentials, () => setCredentials([]));
  }, [api, workspaceId, toolId, functionId, isNew, t]);

  const canChange = role === 'owner' || role === 'admin';
  const workflow = tool?.type === 'workflow';
  const locked = !canChange || workflow;
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => {
    setDraft((d) => ({ ...d, [k]: v }));
    setDirty(true);
  };

  async function save() {
    setSubmitted(true);
    const parsed = FunctionCreateBody.safeParse(draft);
    const fieldErrors: Record<string, string> = {};
    if (!parsed.success) for (const i of parsed.error.issues) fieldErrors[String(i.path[0])] ??= i.message === 'This form field is required!' ? t('required') : i.message;
    setErrors(fieldErrors);
    const tableIssues = Object.values(issues).some((l) => l && l.length > 0);
    if (!workflow && (Object.keys(fieldErrors).length || tableIssues)) {
      toast.error(t('fn.invalid'));
      return;
    }
    setBusy(true);
    try {
      if (isNew) {
        const created = await api.createFunction(workspaceId, toolId, draft);
        toast.success(t('done.saved'));
        setDirty(false);
        navigate(`/operation/workspace/${workspaceId}/tool/${toolId}/capability/${created.id}`, { replace: true });
        return;
      }
      const body = workflow ? { id: functionId, description: draft.description, enabled: draft.enabled } : { id: functionId, ...draft };
      const next = await api.updateFunction(workspaceId, toolId, body);
      setSaved(next);
      setDraft(draftOf(next));
      setDirty(false);
      toast.success(t('done.saved'));
    } catch (e) {
      if (isApiError(e) && Array.isArray(e.data)) setErrors(Object.fromEntries((e.data as { path: string; message: string }[]).map((i) => [i.path.replace(/^body\//, '').split('/')[0], i.message])));
      reportError(e);
    } finally {
      setBusy(false);
    }
  }

  if (failed) return <Page><EmptyState title={failed} action={<Button onClick={() => navigate(`/operation/workspace/${workspaceId}/tool/${toolId}`)}>{t('actions.back')}</Button>} /></Page>;
  if (!tool) return <Page><Spinner label={t('common:states.loading')} /></Page>;

  const auth = draft.auth;
  const setAuth = (type: ToolAuth['type']) => {
    const credential_id = 'credential_id' in auth ? auth.credential_id : (credentials[0]?.id ?? '');
    set('auth', type === 'none' ? { type } : type === 'api_key' ? { type, location: 'header', key: 'X-Api-Key', credential_id } : { type, credential_id });
  };
  const table = (kind: Tables, value: ParamRow[], label: string) => (
    <Field label={label}>
      <ParamTable
        kind={kind}
        value={value}
        readOnly={locked}
        showAllErrors={submitted}
        defaultSubtype={kind === 'body' ? draft.body_subtype : undefined}
        onSubtypeChange={kind === 'body' ? (v: BodySubtype) => set('body_subtype', v) : undefined}
        onChange={(v) => set(kind, v)}
        onIssuesChange={(l) => setIssues((all) => ({ ...all, [kind]: l }))}
        aria-label={label}
      />
    </Field>
  );

  return (
    <Page data-testid="function-page">
      <PageHeader
        title={isNew ? t('fn.newTitle') : (saved?.name ?? '')}
        description={`${tool.name}${workflow ? ` · ${t('fn.readOnlyWorkflow')}` : ''}`}
        actions={
          canChange && (
            <div className={s.headerActions}>
              <Button variant="primary" icon={<Save aria-hidden="true" />} loading={busy} onClick={() => void save()} data-testid="function-save">
                {t('actions.save')}
              </Button>
              {!isNew && tool.type === 'custom' && (
                <Button variant="danger" iconOnly aria-label={t('actions.delete')} onClick={() => setAsking(true)}>
                  <Trash2 aria-hidden="true" />
                </Button>
              )}
            </div>
          )
        }
      />
      {/* The test panel sits beside the basics; the parameter tables get the page's whole width, so
          they fit at 1280 px (issue 28) and scroll visibly only in narrower windows. */}
      <div className={s.fnLayout} data-single={workflow || undefined}>
        <Card className={s.section}>
          <h2 className={s.sectionTitle}>{t('fn.basics')}</h2>
          <Field label={t('fields.name')} required error={errors.name}>
            <Input value={draft.name} maxLength={64} readOnly={locked} onChange={(e) => set('name', e.target.value)} />
          </Field>
          <Field label={t('fields.description')} error={errors.description}>
            <Textarea value={draft.description} maxLength={1000} readOnly={!canChange} onChange={(e) => set('description', e.target.value)} />
          </Field>
          <div className={s.authRow}>
            <Field label={t('fields.method')}>
              <Select value={draft.method} disabled={locked} onValueChange={(v) => set('method', v as Draft['method'])} options={HTTP_METHODS.map((m) => ({ value: m, label: m }))} />
            </Field>
            <Field label={t('fields.url')} required error={errors.url} style={{ flex: 1 }}>
              <Input value={draft.url} readOnly={locked} placeholder="https://api.example.com/items/{id}" onChange={(e) => set('url', e.target.value)} />
            </Field>
          </div>
          <div className={s.authRow}>
            <Field label={t('fields.auth')}>
              <Select value={auth.type} disabled={locked} onValueChange={(v) => setAuth(v as ToolAuth['type'])} options={AUTH_TYPES.map((a) => ({ value: a, label: t(`auth.${a}`) }))} />
            </Field>
            {auth.type === 'api_key' && (
              <>
                <Field label={t('fields.authLocation')}>
                  <Select value={auth.location} disabled={locked} onValueChange={(v) => set('auth', { ...auth, location: v as 'header' | 'query' })} options={[{ value: 'header', label: t('auth.header') }, { value: 'query', label: t('auth.query') }]} />
                </Field>
                <Field label={t('fields.authKey')} required>
                  <Input value={auth.key} readOnly={locked} onChange={(e) => set('auth', { ...auth, key: e.target.value })} />
                </Field>
              </>
            )}
            {auth.type !== 'none' && (
              <Field label={t('fields.credential')} required error={errors.auth} help={credentials.length === 0 ? t('auth.noCredentials') : undefined}>
                <Select
                  value={auth.credential_id || undefined}
                  disabled={locked}
                  placeholder={t('auth.pickCredential')}
                  onValueChange={(v) => set('auth', { ...auth, credential_id: v })}
                  options={credentials.map((c) => ({ value: c.id, label: c.name }))}
                />
              </Field>
            )}
            <Field label={t('fields.enabled')}>
              <Switch checked={draft.enabled} disabled={!canChange} onCheckedChange={(v) => set('enabled', v)} />
            </Field>
          </div>
        </Card>
        {!workflow && <FunctionTestPanel workspaceId={workspaceId} toolId={toolId} fn={saved} dirty={dirty} />}
      </div>
      <Card className={cn(s.section, s.requestSection)}>
        <h2 className={s.sectionTitle}>{t('fn.request')}</h2>
        {table('params', draft.params, t('fields.params'))}
        {!workflow && table('headers', draft.headers, t('fields.headers'))}
        {!workflow && table('body', draft.body, t('fields.body'))}
        {!workflow && table('response', draft.response, t('fields.response'))}
      </Card>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={t('detail.confirmDeleteFunction.title')}
        description={t('detail.confirmDeleteFunction.description', { name: saved?.name ?? '' })}
        confirmLabel={t('actions.delete')}
        danger
        onConfirm={async () => {
          try {
            await api.removeFunction(workspaceId, toolId, functionId);
            toast.success(t('done.functionDeleted'));
            navigate(`/operation/workspace/${workspaceId}/tool/${toolId}`);
          } catch (e) {
            reportError(e);
          }
        }}
      />
    </Page>
  );
}
