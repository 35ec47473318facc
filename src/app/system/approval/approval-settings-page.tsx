/**
 * /operation/system/approval (issue 33): the caller's tenant's approval setting, for super admins and
 * tenant admins: whether store submissions and portal distributions go through approval, and who
 * approves (people and organisations with the person/org picker, and/or the tenant's admins).
 */
import { Save } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApproverRef, ApprovalSettings } from '../../../../schemas/approval';
import { getApprovalSettings, saveApprovalSettings } from '../../../api/approvals';
import { PersonOrgPickerField } from '../../../kit/person-org-picker';
import { Button, Card, Checkbox, Field, Spinner, Switch, toast } from '../../../ui';
import { useSession } from '../../session';
import { Page, PageHeader } from '../../shell/page';
import { formatDateTime, LoadFailed, NoPermission, PAGE_STYLE, reportError, useLoad } from '../users/admin-kit';

type Form = { store: boolean; portal: boolean; people: ApproverRef[]; admins: boolean };

const formOf = (s: ApprovalSettings): Form => ({
  store: s.store,
  portal: s.portal,
  people: s.approvers.filter((a) => a.kind !== 'role').map(({ kind, id }) => ({ kind, id })),
  admins: s.approvers.some((a) => a.kind === 'role'),
});

export default function ApprovalSettingsPage() {
  const { t } = useTranslation(['approval', 'common']);
  const role = useSession((st) => st.user?.role);
  return (
    <Page style={PAGE_STYLE} data-testid="approval-settings-page">
      <PageHeader title={t('settings.title')} description={t('settings.description')} />
      {role === 'super_admin' || role === 'tenant_admin' ? <SettingsEditor /> : <NoPermission description={t('settings.adminsOnly')} />}
    </Page>
  );
}

function SettingsEditor() {
  const { t } = useTranslation(['approval', 'common']);
  const loaded = useLoad((signal) => getApprovalSettings({ signal }), []);
  const [saved, setSaved] = useState<ApprovalSettings | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (loaded.status === 'ready') {
      setSaved(loaded.data);
      setForm(formOf(loaded.data));
    }
  }, [loaded.status, loaded.data]);

  if (loaded.status === 'error' && !form) return <LoadFailed onRetry={loaded.reload} />;
  if (!form) return <Spinner />;

  const save = async () => {
    setBusy(true);
    try {
      const next = await saveApprovalSettings({
        store: form.store,
        portal: form.portal,
        approvers: [...form.people, ...(form.admins ? [{ kind: 'role' as const, id: 'tenant_admin' as const }] : [])],
      });
      setSaved(next);
      setForm(formOf(next));
      toast.success(t('settings.saved'));
    } catch (e) {
      reportError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card style={{ padding: 20, display: 'flex', flexDirection: 'column', gap: 16, maxWidth: 720 }}>
      <Field label={t('settings.store')} help={t('settings.storeHelp')} layout="horizontal" labelWidth={220}>
        <Switch checked={form.store} onCheckedChange={(v) => setForm({ ...form, store: v })} data-testid="approval-setting-store" />
      </Field>
      <Field label={t('settings.portal')} help={t('settings.portalHelp')} layout="horizontal" labelWidth={220}>
        <Switch checked={form.portal} onCheckedChange={(v) => setForm({ ...form, portal: v })} data-testid="approval-setting-portal" />
      </Field>
      <Field label={t('settings.approvers')} help={t('settings.approversHelp')}>
        <PersonOrgPickerField
          selectType="both"
          mode="multiple"
          value={form.people.map((a) => a.id)}
          onChange={(_ids, items) => setForm({ ...form, people: items.map((i) => ({ kind: i.kind, id: i.id })) })}
          aria-label={t('settings.approvers')}
          data-testid="approval-setting-approvers"
        />
      </Field>
      <Field label={t('settings.tenantAdmins')} layout="horizontal" labelWidth={220}>
        <Checkbox checked={form.admins} onCheckedChange={(v) => setForm({ ...form, admins: v === true })} data-testid="approval-setting-admins" />
      </Field>
      <div style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
        <Button variant="primary" icon={<Save aria-hidden="true" />} loading={busy} onClick={() => void save()} data-testid="approval-settings-save">
          {t('settings.save')}
        </Button>
        {saved?.updated_at && <span style={{ color: 'var(--color-text-tertiary)' }}>{t('settings.updated', { name: saved.updated_by_name ?? '', time: formatDateTime(saved.updated_at) })}</span>}
      </div>
    </Card>
  );
}
