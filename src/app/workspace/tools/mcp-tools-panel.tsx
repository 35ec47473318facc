import { RefreshCw, ShieldAlert } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpToolItem, Tool } from '../../../../schemas/tool';
import { isApiError } from '../../../api/request';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { Spinner } from '../../../ui/spinner';
import { Switch } from '../../../ui/switch';
import { reportError } from '../members/report-error';
import { useToolApi } from './tool-api';
import s from './tools.module.css';

/**
 * The MCP server's tools, listed live (a fresh connection on each refresh), each with its switch. A
 * stdio server this server may not start is not contacted: the panel says why and what can be done.
 */
export function McpToolsPanel(props: { workspaceId: string; tool: Tool; canChange: boolean; onChanged: (t: Tool) => void }) {
  if (props.tool.mcp_policy && !props.tool.mcp_policy.allowed) return <McpNotAllowed tool={props.tool} />;
  return <McpLiveTools {...props} />;
}

function McpNotAllowed({ tool }: { tool: Tool }) {
  const { t } = useTranslation('tools');
  const server = tool.mcp_config ? Object.values(tool.mcp_config.mcpServers)[0] : undefined;
  const command = server && 'command' in server ? server.command : '';
  const reason = tool.mcp_policy?.reason ?? 'command';
  return (
    <Card className={s.section} data-testid="mcp-not-allowed" role="alert">
      <div className={s.policyNotice}>
        <ShieldAlert aria-hidden="true" />
        <div>
          <h2 className={s.sectionTitle}>{t('detail.policy.title')}</h2>
          <p>{t(`detail.policy.${reason}`, { command })}</p>
          <p className={s.muted}>{t('detail.policy.what')}</p>
        </div>
      </div>
    </Card>
  );
}

function McpLiveTools({ workspaceId, tool, canChange, onChanged }: { workspaceId: string; tool: Tool; canChange: boolean; onChanged: (t: Tool) => void }) {
  const { t } = useTranslation('tools');
  const api = useToolApi();
  const [state, setState] = useState<{ status: 'loading' } | { status: 'ready'; tools: McpToolItem[] } | { status: 'error'; message: string }>({ status: 'loading' });
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(() => {
    setState({ status: 'loading' });
    api.mcpTools(workspaceId, tool.id).then(
      (r) => setState({ status: 'ready', tools: r.tools }),
      (e: unknown) => setState({ status: 'error', message: isApiError(e) ? e.msg || e.code : String(e) }),
    );
  }, [api, workspaceId, tool.id]);
  useEffect(load, [load]);

  async function toggle(name: string, enabled: boolean) {
    setBusy(name);
    try {
      const next = await api.toggleMcpTool(workspaceId, tool.id, name, enabled);
      onChanged(next);
      setState((st) => (st.status === 'ready' ? { ...st, tools: st.tools.map((x) => (x.name === name ? { ...x, enabled } : x)) } : st));
    } catch (e) {
      reportError(e);
    } finally {
      setBusy(null);
    }
  }

  return (
    <Card className={s.section} data-testid="mcp-tools">
      <div className={s.sectionHead}>
        <div>
          <h2 className={s.sectionTitle}>{t('detail.mcpTools')}</h2>
          <p className={s.muted}>{t('detail.mcpHelp')}</p>
        </div>
        <Button size="sm" variant="secondary" icon={<RefreshCw aria-hidden="true" />} onClick={load} disabled={state.status === 'loading'}>
          {t('actions.refresh')}
        </Button>
      </div>
      {state.status === 'loading' && (
        <p className={s.muted}>
          <Spinner size={12} label="" /> {t('detail.mcpLoading')}
        </p>
      )}
      {state.status === 'error' && (
        <p role="alert" className={s.formError}>
          {t('detail.mcpFailed')}: {state.message}
        </p>
      )}
      {state.status === 'ready' && state.tools.length === 0 && <p className={s.muted}>{t('detail.mcpEmpty')}</p>}
      {state.status === 'ready' && state.tools.length > 0 && (
        <ul className={s.list}>
          {state.tools.map((x) => (
            <li key={x.name} className={s.listItem}>
              <div className={s.listMain}>
                <span className={s.listTitle}>{x.name}</span>
                {x.description && <span className={s.muted}>{x.description}</span>}
              </div>
              <Switch
                checked={x.enabled}
                disabled={!canChange || busy === x.name}
                onCheckedChange={(v) => void toggle(x.name, v)}
                aria-label={`${t('fields.enabled')} ${x.name}`}
              />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
