/**
 * /operation/system/security: the server's outbound network policy and its stdio MCP commands, for
 * super admins only (a tenant admin sees a no-permission state: these lists open the server's own
 * networks and host to every tenant). The environment's lists (WEFT_OUTBOUND_ALLOW,
 * WEFT_MCP_STDIO_COMMANDS) show read-only beside the editable stored ones; saving applies at once.
 */
import { Network, Save, Terminal } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { NetworkPolicy } from '../../../../schemas/network-policy';
import { isApiError } from '../../../api/request';
import { Badge, Button, Card, Field, Spinner, Textarea, toast } from '../../../ui';
import { useSession } from '../../session';
import { Page, PageHeader } from '../../shell/page';
import { formatDateTime, LoadFailed, NoPermission, PAGE_STYLE, reportError, useLoad } from '../users/admin-kit';
import { useSystemApi } from '../users/system-api';
import s from './security.module.css';

export default function NetworkPolicyPage() {
  const { t } = useTranslation(['system', 'common']);
  const me = useSession((st) => st.user);
  return (
    <Page style={PAGE_STYLE} data-testid="network-policy-page">
      <PageHeader title={t('security.title')} description={t('security.description')} />
      {me?.role === 'super_admin' ? <PolicyEditor /> : <NoPermission description={t('security.superAdminOnly')} />}
    </Page>
  );
}

type Errors = { allow?: string; mcp_stdio_commands?: string };
const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);

/** VALIDATION-1000's field detail (`body/allow/2`) as a message per list, naming the line. */
function fieldErrors(e: unknown, sent: Record<keyof Errors, string[]>, lineError: (line: number, entry: string, message: string) => string): Errors | null {
  if (!isApiError(e) || e.code !== 'VALIDATION-1000' || !Array.isArray(e.data)) return null;
  const out: Errors = {};
  for (const issue of e.data as { path?: string; message?: string }[]) {
    const m = /^body\/(allow|mcp_stdio_commands)\/(\d+)/.exec(issue.path ?? '');
    if (!m) continue;
    const key = m[1] as keyof Errors;
    const index = Number(m[2]);
    out[key] ??= lineError(index + 1, sent[key][index] ?? '', issue.message ?? '');
  }
  return Object.keys(out).length ? out : null;
}

function PolicyEditor() {
  const { t } = useTranslation(['system', 'common']);
  const api = useSystemApi();
  const loaded = useLoad((signal) => api.getNetworkPolicy({ signal }), [api]);
  const [policy, setPolicy] = useState<NetworkPolicy | null>(null);
  const [allow, setAllow] = useState('');
  const [commands, setCommands] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);

  const show = (p: NetworkPolicy) => {
    setPolicy(p);
    setAllow(p.stored.allow.join('\n'));
    setCommands(p.stored.mcp_stdio_commands.join('\n'));
  };
  useEffect(() => {
    if (loaded.status === 'ready') show(loaded.data);
  }, [loaded.status, loaded.data]);

  if (loaded.status === 'error' && !policy) return <LoadFailed onRetry={loaded.reload} />;
  if (!policy) return <Spinner label={t('common:states.loading')} />;

  const save = async () => {
    const body = { allow: lines(allow), mcp_stdio_commands: lines(commands) };
    setSaving(true);
    setErrors({});
    try {
      show(await api.saveNetworkPolicy(body));
      toast.success(t('security.saved'));
    } catch (e) {
      const fields = fieldErrors(e, body, (line, entry, message) => t('security.lineError', { line, entry, message }));
      if (fields) setErrors(fields);
      else reportError(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className={s.sections}>
      <Card className={s.section} data-testid="outbound-policy">
        <SectionHead icon={<Network aria-hidden="true" />} title={t('security.outbound.title')} text={t('security.outbound.help')} />
        {policy.env.allow_private && (
          <p className={s.warning} role="note">
            {t('security.outbound.allowPrivate')}
          </p>
        )}
        <EnvList label={t('security.outbound.env')} items={policy.env.allow} testId="env-allow" />
        <Field label={t('security.outbound.stored')} help={t('security.outbound.syntax')} error={errors.allow}>
          <Textarea className={s.entries} rows={6} value={allow} onChange={(e) => setAllow(e.target.value)} spellCheck={false} placeholder={'127.0.0.1:11434\n10.20.0.0/16\ndb.corp.local:1521'} />
        </Field>
      </Card>
      <Card className={s.section} data-testid="stdio-policy">
        <SectionHead icon={<Terminal aria-hidden="true" />} title={t('security.stdio.title')} text={t('security.stdio.help')} />
        <p className={s.warning} role="note">
          {t('security.stdio.warning')}
        </p>
        <EnvList label={t('security.stdio.env')} items={policy.env.mcp_stdio_commands} testId="env-commands" />
        <Field label={t('security.stdio.stored')} help={t('security.stdio.syntax')} error={errors.mcp_stdio_commands}>
          <Textarea className={s.entries} rows={4} value={commands} onChange={(e) => setCommands(e.target.value)} spellCheck={false} placeholder="/opt/mcp/bin/files-server" />
        </Field>
      </Card>
      <div className={s.footer}>
        <span className={s.muted}>{policy.updated_at ? t('security.updated', { by: policy.updated_by ?? '', at: formatDateTime(policy.updated_at) }) : t('security.neverSaved')}</span>
        <Button variant="primary" icon={<Save aria-hidden="true" />} loading={saving} onClick={() => void save()}>
          {t('common:actions.save')}
        </Button>
      </div>
    </div>
  );
}

function SectionHead({ icon, title, text }: { icon: ReactNode; title: string; text: string }) {
  return (
    <div className={s.head}>
      {icon}
      <div>
        <h2 className={s.title}>{title}</h2>
        <p className={s.muted}>{text}</p>
      </div>
    </div>
  );
}

/** The environment's entries: read-only here (the operator changes them where the server starts). */
function EnvList({ label, items, testId }: { label: string; items: string[]; testId: string }) {
  const { t } = useTranslation('system');
  return (
    <div className={s.envList} data-testid={testId}>
      <span className={s.envLabel}>{label}</span>
      {items.length ? (
        <ul className={s.chips}>
          {items.map((x) => (
            <li key={x}>
              <Badge variant="neutral" appearance="outline" className={s.mono}>
                {x}
              </Badge>
            </li>
          ))}
        </ul>
      ) : (
        <span className={s.muted}>{t('security.none')}</span>
      )}
    </div>
  );
}
