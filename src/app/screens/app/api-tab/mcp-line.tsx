/**
 * Workflow apps: the project space's MCP server (its published workflow apps offered as MCP tools over
 * Streamable HTTP, schemas/app-api.ts McpExposure). Shows the endpoint and whether this app is one of
 * its tools, and the server's keys (keys of the space, not of this app). The space's owner switches
 * this app in or out here (a PUT of the space's exposure with this app added or removed) and manages
 * the keys; others see the switch and the key actions disabled with the reason.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpExposure } from '../../../../../schemas/app-api';
import { Switch } from '../../../../ui/switch';
import { toast } from '../../../../ui/toast';
import { reportError } from '../../../workspace/members/report-error';
import { ApiKeys } from './api-keys';
import { spaceKeys, useApiTabApi } from './api-tab-api';
import { CodeBlock } from './code-block';
import s from './api-tab.module.css';

export interface McpLineProps {
  appId: string;
  workspaceId: string;
  origin: string;
  isOwner: boolean;
  /** Published apps only can be tools. */
  published: boolean;
}

export function McpLine({ appId, workspaceId, origin, isOwner, published }: McpLineProps) {
  const { t } = useTranslation('appapi');
  const api = useApiTabApi();
  const [exposure, setExposure] = useState<McpExposure | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const switchId = useId();
  const keys = useMemo(() => spaceKeys(api, workspaceId), [api, workspaceId]);
  useEffect(() => {
    let live = true;
    api.mcp(workspaceId).then((e) => live && setExposure(e));
    return () => {
      live = false;
    };
  }, [api, workspaceId]);
  if (exposure === undefined) return null;
  if (exposure === null)
    return (
      <p className={s.muted} data-testid="mcp-line">
        {t('mcp.unavailable')}
      </p>
    );
  const offered = exposure.enabled && exposure.app_ids.includes(appId);
  const endpoint = /^https?:/.test(exposure.endpoint) ? exposure.endpoint : `${origin.replace(/\/+$/, '')}${exposure.endpoint}`;
  const reason = !isOwner ? t('mcp.ownerOnly') : !published ? t('mcp.unpublished') : undefined;
  const toggle = async (on: boolean) => {
    setBusy(true);
    try {
      const others = exposure.app_ids.filter((id) => id !== appId);
      const next = await api.setMcp(workspaceId, { enabled: on ? true : exposure.enabled, app_ids: on ? [...others, appId] : others });
      setExposure(next);
      toast.success(t(on ? 'mcp.added' : 'mcp.removed'));
    } catch (e) {
      reportError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className={s.mcp} data-testid="mcp-line">
      <p className={s.muted}>{t('mcp.line')}</p>
      <CodeBlock code={endpoint} label={t('mcp.endpoint')} inline data-testid="mcp-endpoint" />
      <label className={s.option} htmlFor={switchId} title={reason}>
        <Switch id={switchId} size="sm" checked={offered} disabled={!!reason || busy} onCheckedChange={(on) => void toggle(on)} data-testid="mcp-switch" />
        {t(offered ? 'mcp.offered' : 'mcp.notOffered')}
      </label>
      {reason && <p className={s.hint}>{reason}</p>}
      <h3 className={s.partTitle}>{t('mcp.keysTitle')}</h3>
      <p className={s.muted}>{t('mcp.keysHelp')}</p>
      <ApiKeys source={keys} canManage={isOwner} reason={t('mcp.keysOwnerOnly')} testId="mcp-key" />
    </div>
  );
}
