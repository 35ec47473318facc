/**
 * /operation/system/tool: the tools this server offers every project space (spec 7.4 admin tools):
 * the built-in ones and those installed plugins list, with whether this tenant has set the
 * credentials a plugin tool needs. Tenant and super admins.
 */
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AdminTool } from '../../../../schemas/admin-tools';
import { listAdminTools } from '../../../api/plugins';
import { Badge, Card, EmptyState, Spinner, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../ui';
import { useSession } from '../../session';
import { Page, PageHeader } from '../../shell/page';
import { LoadFailed, NoPermission, PAGE_STYLE, useLoad } from '../users/admin-kit';
import s from '../plugins/plugins.module.css';

export const toolHref = (id: string) => `/operation/system/tool/detail?id=${encodeURIComponent(id)}`;

/** The tool's description in the user's language (built-ins have texts of ours; a plugin's are its own). */
export function useToolDescription() {
  const { t, i18n } = useTranslation('system');
  return (tool: Pick<AdminTool, 'source' | 'name' | 'description'>) => {
    const key = `tools.builtin.${tool.name}`;
    return tool.source === 'builtin' && i18n.exists(key, { ns: 'system' }) ? t(key as never) : tool.description;
  };
}

export function ToolCredentialBadge({ tool }: { tool: AdminTool }) {
  const { t } = useTranslation('system');
  if (!tool.needs_credentials) return <span className={s.muted}>{t('tools.credentials.none')}</span>;
  return <Badge variant={tool.credentials_set ? 'success' : 'warning'}>{tool.credentials_set ? t('tools.credentials.set') : t('tools.credentials.unset')}</Badge>;
}

export default function ToolsPage() {
  const { t } = useTranslation('system');
  const me = useSession((st) => st.user);
  const admin = me?.role === 'super_admin' || me?.role === 'tenant_admin';
  return (
    <Page style={PAGE_STYLE} data-testid="system-tools-page">
      <PageHeader title={t('tools.title')} description={t('tools.description')} />
      {admin ? <ToolList /> : <NoPermission description={t('tools.adminOnly')} />}
    </Page>
  );
}

function ToolList() {
  const { t } = useTranslation(['system', 'common']);
  const loaded = useLoad((signal) => listAdminTools({ signal, reaction: 'silent' }), []);
  const describe = useToolDescription();
  if (loaded.status === 'error') return <LoadFailed onRetry={loaded.reload} />;
  if (loaded.status !== 'ready') return <Spinner label={t('common:states.loading')} />;
  if (!loaded.data.length) return <EmptyState title={t('tools.empty')} />;
  return (
    <Card className={s.install}>
      <Table data-testid="system-tools">
        <TableHeader>
          <TableRow>
            <TableHead style={{ width: 220 }}>{t('tools.columns.name')}</TableHead>
            <TableHead style={{ width: 200 }}>{t('tools.columns.source')}</TableHead>
            <TableHead>{t('tools.columns.description')}</TableHead>
            <TableHead style={{ width: 120 }}>{t('tools.columns.credentials')}</TableHead>
            <TableHead style={{ width: 90 }}>{t('tools.columns.actions')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {loaded.data.map((tool) => (
            <TableRow key={tool.id} data-testid={`tool-row-${tool.id}`}>
              <TableCell>
                <Link className={s.name} to={toolHref(tool.id)}>
                  {tool.name}
                </Link>
              </TableCell>
              <TableCell>{tool.plugin ? t('tools.source.plugin', { name: `${tool.plugin.name} ${tool.plugin.version}` }) : t('tools.source.builtin')}</TableCell>
              <TableCell>{describe(tool)}</TableCell>
              <TableCell>
                <ToolCredentialBadge tool={tool} />
              </TableCell>
              <TableCell>
                <Link to={toolHref(tool.id)}>{t('tools.open')}</Link>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
