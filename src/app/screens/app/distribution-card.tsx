/**
 * One platform's card of the distribute tab: its state (and the store's review, the tool it made),
 * the version served with "a newer version is available", who distributed and when (and who
 * cancelled), the link into the portal and the embedded chat's snippet, and the actions with the
 * reason a disabled one cannot be done. Presentational: the page does the calls.
 */
import { ArrowUpCircle, Ban, Copy, ExternalLink, Globe, Send, Store, Users, Wrench, type LucideIcon } from 'lucide-react';
import { useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useInRouterContext } from 'react-router';
import type { DistributionPlatform, DistributionState, DistributionVersionRef, DistributionView, StoreReviewState } from '../../../../schemas/distribution';
import { isChatMode, type FlowMode } from '../../../../schemas/flow';
import { formatDateTime } from '../../../kit/schema-table';
import { Badge, type BadgeVariant } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../../ui/card';
import { toast } from '../../../ui/toast';
import { actionsOf, embedSnippet, portalPath, reachesPortal, reasonOf } from './distribution-logic';
import s from './distribute-page.module.css';

const ICONS: Record<DistributionPlatform, LucideIcon> = { current_project: Users, portal: Globe, store: Store, tool: Wrench };
const STATE_TONES: Record<DistributionState, BadgeVariant> = { not_distributed: 'neutral', distributed: 'success', cancelled: 'warning' };
const REVIEW_TONES: Record<StoreReviewState, BadgeVariant> = { in_approval: 'warning', awaiting_release: 'info', released: 'success', rejected: 'danger', offline: 'neutral' };

export interface DistributionCardProps {
  view: DistributionView;
  app: { id: string; type: FlowMode; workspace_id: string };
  /** The newest published version (for "a newer version is available"). */
  latest: DistributionVersionRef | null;
  /** The server's origin, for the embed snippet (default: this page's). */
  origin?: string;
  /** Where the Version tab is (the "no version" reason links to it). */
  versionTabHref?: string;
  onDistribute?: () => void;
  onMove?: () => void;
  onCancel?: () => void;
}

/** A router link inside a router (the app), a plain link elsewhere (a story without one). */
function To({ href, children, ...rest }: { href: string; children: ReactNode; 'data-testid'?: string }) {
  const inRouter = useInRouterContext();
  return inRouter ? (
    <Link to={href} className={s.link} {...rest}>
      {children}
    </Link>
  ) : (
    <a href={href} className={s.link} {...rest}>
      {children}
    </a>
  );
}

export function DistributionCard({ view, app, latest, origin, versionTabHref, onDistribute, onMove, onCancel }: DistributionCardProps) {
  const { t } = useTranslation('distribution');
  const { t: tApproval } = useTranslation('approval');
  const { platform, state, distribution: d } = view;
  const Icon = ICONS[platform];
  const actions = actionsOf(view);
  const reason = reasonOf(actions);
  const reasonText = reason ? t(`blocked.${reason}`) : undefined;
  const byAt = (name: string | null, at: string | null) => t('byAt', { name: name || t('someone'), time: at ? formatDateTime(at) : '' });
  const distributed = state === 'distributed';
  const where = origin ?? (typeof window === 'undefined' ? '' : window.location.origin);

  return (
    <Card className={s.card} data-testid={`distribution-card-${platform}`} data-state={state} aria-labelledby={`distribution-${platform}-title`}>
      <CardHeader className={s.cardHeader}>
        <span className={s.platformIcon} aria-hidden="true">
          <Icon />
        </span>
        <div className={s.cardHeading}>
          <CardTitle id={`distribution-${platform}-title`}>{t(`platforms.${platform}.title`)}</CardTitle>
          <CardDescription>{t(`platforms.${platform}.description`)}</CardDescription>
        </div>
        <Badge variant={STATE_TONES[state]} dot data-testid="distribution-state">
          {t(`state.${state}`)}
        </Badge>
      </CardHeader>
      <CardContent className={s.cardContent}>
        {d && (
          <dl className={s.facts}>
            <dt>{t('fields.version')}</dt>
            <dd>
              <span className={s.version} data-testid="distribution-version">
                {d.version?.version ?? t('versionDeleted')}
              </span>
              {view.newer_version_available && latest && (
                <Badge variant="warning" data-testid="distribution-newer">
                  <ArrowUpCircle aria-hidden="true" className={s.badgeIcon} />
                  {t('newer', { version: latest.version })}
                </Badge>
              )}
            </dd>
            <dt>{t('fields.distributed')}</dt>
            <dd data-testid="distribution-by">{byAt(d.distributed_by_name, d.distributed_at)}</dd>
            {state === 'cancelled' && (
              <>
                <dt>{t('fields.cancelled')}</dt>
                <dd data-testid="distribution-cancelled-by">{byAt(d.cancelled_by_name, d.cancelled_at)}</dd>
              </>
            )}
            {platform === 'store' && d.review_state && (
              <>
                <dt>{t('fields.review')}</dt>
                <dd data-testid="distribution-review">
                  <Badge variant={REVIEW_TONES[d.review_state]}>{t(`review.${d.review_state}`)}</Badge>
                  {d.review_reason && <span className={s.muted}>{d.review_reason}</span>}
                </dd>
              </>
            )}
            {platform === 'tool' && d.tool_id && (
              <>
                <dt>{t('fields.tool')}</dt>
                <dd>
                  <To href={`/operation/workspace/${encodeURIComponent(app.workspace_id)}/tool/${encodeURIComponent(d.tool_id)}`} data-testid="distribution-tool-link">
                    <Wrench aria-hidden="true" />
                    {t('openTool')}
                  </To>
                </dd>
              </>
            )}
          </dl>
        )}
        {view.approval && (
          <p className={s.muted} data-testid="distribution-approval" data-state={view.approval.state}>
            {tApproval(`submitterState.${view.approval.state}`, { comment: view.approval.last_comment })}
            {view.approval.version ? ` · ${view.approval.version}` : ''}
          </p>
        )}
        {distributed && reachesPortal(platform) && (
          <div className={s.portal}>
            <a className={s.link} href={portalPath(app)} target="_blank" rel="noreferrer" data-testid="distribution-portal-link">
              <ExternalLink aria-hidden="true" />
              {t('openPortal')}
            </a>
            {isChatMode(app.type) && <EmbedSnippet code={embedSnippet(where, app.id)} />}
          </div>
        )}
      </CardContent>
      <CardFooter className={s.cardFooter}>
        {reasonText && (
          <p className={s.reason} data-testid="distribution-blocked" data-reason={reason}>
            {reasonText}
            {reason === 'no_version' && versionTabHref && (
              <>
                {' '}
                <To href={versionTabHref} data-testid="distribution-version-tab">
                  {t('versionTab')}
                </To>
              </>
            )}
          </p>
        )}
        <div className={s.cardActions}>
          {actions.distribute.shown && (
            <Button
              variant="primary"
              size="sm"
              icon={<Send aria-hidden="true" />}
              disabled={!!actions.distribute.disabledBy}
              title={reasonText}
              onClick={onDistribute}
              data-testid="distribution-distribute"
            >
              {state === 'cancelled' ? t('actions.distributeAgain') : t('actions.distribute')}
            </Button>
          )}
          {actions.move.shown && (
            <Button
              variant={view.newer_version_available ? 'primary' : 'secondary'}
              size="sm"
              icon={<ArrowUpCircle aria-hidden="true" />}
              disabled={!!actions.move.disabledBy}
              title={actions.move.disabledBy ? t(`blocked.${actions.move.disabledBy}`) : undefined}
              onClick={onMove}
              data-testid="distribution-move"
            >
              {t('actions.move')}
            </Button>
          )}
          {actions.cancel.shown && (
            <Button
              variant="ghost"
              size="sm"
              icon={<Ban aria-hidden="true" />}
              disabled={!!actions.cancel.disabledBy}
              title={actions.cancel.disabledBy ? t(`blocked.${actions.cancel.disabledBy}`) : undefined}
              onClick={onCancel}
              data-testid="distribution-cancel"
            >
              {t('actions.cancel')}
            </Button>
          )}
        </div>
      </CardFooter>
    </Card>
  );
}

/** The embedded chat's iframe code, read-only, with a copy button. */
function EmbedSnippet({ code }: { code: string }) {
  const { t } = useTranslation('distribution');
  const area = useRef<HTMLTextAreaElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      toast.success(t('embed.copied'));
    } catch {
      // No clipboard (an insecure origin): leave the code selected for Ctrl+C.
      area.current?.select();
      toast.error(t('embed.copyFailed'));
    }
  };
  return (
    <div className={s.embed} data-testid="distribution-embed">
      <div className={s.embedHeader}>
        <span className={s.embedTitle}>{t('embed.title')}</span>
        <Button variant="secondary" size="sm" icon={<Copy aria-hidden="true" />} onClick={() => void copy()} data-testid="distribution-embed-copy">
          {t('embed.copy')}
        </Button>
      </div>
      <p className={s.muted}>{t('embed.help')}</p>
      <textarea ref={area} className={s.code} readOnly rows={3} value={code} aria-label={t('embed.title')} onFocus={(e) => e.currentTarget.select()} data-testid="distribution-embed-code" />
    </div>
  );
}
