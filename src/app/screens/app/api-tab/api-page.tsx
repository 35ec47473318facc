/**
 * The api tab of /operation/app/:appId/{agent-builder|agent-team|agent-flow} (spec 2 "api"; issue 22):
 * the app as a service. The base URL of its public API, its keys (./api-keys.tsx), the documentation
 * generated from its published version (./api-docs-section.tsx), embedding in a web page for chat apps
 * (./embed-section.tsx) and, for workflow apps, the project space's MCP server (./mcp-line.tsx).
 * Data comes through {@link ApiTabApiContext}.
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOutletContext } from 'react-router';
import type { AppDetail } from '../../../../../schemas/app';
import { isChatMode, type FlowDocument } from '../../../../../schemas/flow';
import type { MemberRole } from '../../../../../schemas/workspace';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../../ui/card';
import { Skeleton } from '../../../../ui/skeleton';
import { Page } from '../../../shell/page';
import type { EditorContext } from '../editor-layout';
import { ApiDocs } from './api-docs-section';
import { ApiKeys } from './api-keys';
import { appKeys, useApiTabApi, type PublishedDoc } from './api-tab-api';
import { CodeBlock } from './code-block';
import { EmbedSection } from './embed-section';
import { McpLine } from './mcp-line';
import s from './api-tab.module.css';

type ApiApp = Pick<AppDetail, 'id' | 'workspace_id' | 'type'> & { draft?: { document: FlowDocument } };

export interface ApiPageProps {
  /** Default: the app of the editor route. */
  app?: ApiApp;
  /** The caller's role in the app's project space. Default: the editor route's workspace, else asked. */
  role?: MemberRole | null;
  /** The server's origin the snippets name (default: this page's). */
  origin?: string;
}

export default function ApiPage({ app: given, role: givenRole, origin = window.location.origin }: ApiPageProps) {
  const { t } = useTranslation('appapi');
  const context = useOutletContext<EditorContext | undefined>();
  const app = given ?? context?.app;
  const api = useApiTabApi();
  const [role, setRole] = useState<MemberRole | null>(givenRole ?? context?.workspace?.role_type ?? null);
  const [published, setPublished] = useState<PublishedDoc | null | undefined>(undefined);
  const appId = app?.id ?? '';
  const workspaceId = app?.workspace_id ?? '';
  const keys = useMemo(() => appKeys(api, appId, workspaceId), [api, appId, workspaceId]);

  useEffect(() => {
    if (givenRole !== undefined || context?.workspace?.role_type || !workspaceId) return;
    api.role(workspaceId).then(setRole, () => setRole(null));
  }, [api, workspaceId, givenRole, context?.workspace?.role_type]);

  useEffect(() => {
    if (!appId) return;
    let live = true;
    setPublished(undefined);
    // Without a readable version the docs describe the draft, as for an app never published.
    api.published(appId, workspaceId).then(
      (p) => live && setPublished(p),
      () => live && setPublished(null),
    );
    return () => {
      live = false;
    };
  }, [api, appId, workspaceId]);

  if (!app) return null;
  const baseUrl = `${origin.replace(/\/+$/, '')}/v1`;
  const canManage = role === 'owner' || role === 'admin';
  const chat = isChatMode(app.type);
  return (
    <Page data-testid="api-page" className={s.page}>
      <Card>
        <CardHeader>
          <CardTitle>{t('service.title')}</CardTitle>
          <CardDescription>{t(chat ? 'service.chat' : 'service.workflow')}</CardDescription>
        </CardHeader>
        <CardContent className={s.cardBody}>
          <div className={s.baseUrl}>
            <span className={s.label}>{t('service.baseUrl')}</span>
            <CodeBlock code={baseUrl} label={t('service.baseUrl')} inline data-testid="api-base-url" />
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('keys.title')}</CardTitle>
        </CardHeader>
        <CardContent className={s.cardBody}>
          <ApiKeys source={keys} canManage={canManage} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('docs.title')}</CardTitle>
        </CardHeader>
        <CardContent className={s.cardBody}>
          {published === undefined ? (
            <div className={s.loading} aria-busy="true">
              <Skeleton height={16} width="40%" />
              <Skeleton height={120} />
            </div>
          ) : (
            <ApiDocs appId={app.id} mode={app.type} baseUrl={baseUrl} published={published} draft={app.draft?.document ?? null} />
          )}
        </CardContent>
      </Card>
      {chat ? (
        <Card>
          <CardHeader>
            <CardTitle>{t('embed.title')}</CardTitle>
          </CardHeader>
          <CardContent className={s.cardBody}>
            <EmbedSection origin={origin} appId={app.id} />
          </CardContent>
        </Card>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>{t('mcp.title')}</CardTitle>
          </CardHeader>
          <CardContent className={s.cardBody}>
            <McpLine appId={app.id} workspaceId={app.workspace_id} origin={origin} isOwner={role === 'owner'} published={!!published} />
          </CardContent>
        </Card>
      )}
    </Page>
  );
}
