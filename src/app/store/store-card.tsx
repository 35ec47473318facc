import { BookOpen, FileText, Puzzle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { StoreItem } from '../../../schemas/store';
import { AppIcon } from '../../kit/widgets/icon-picker';
import { Badge, Card, Skeleton } from '../../ui';
import { REVIEW_TONE } from './store-kinds';
import s from './store.module.css';
import { seededName } from '../../i18n/seeded';

/** The item's icon: its own (apps, tools) or the type's. */
export function StoreItemIcon({ item, size = 40 }: { item: Pick<StoreItem, 'type' | 'icon' | 'name'>; size?: number }) {
  if (item.icon && (item.icon.icon || item.icon.iconPath)) return <AppIcon value={item.icon} size={size} name={item.name} />;
  const Icon = item.type === 'dataset' ? BookOpen : item.type === 'prompt' ? FileText : Puzzle;
  return (
    <span className={s.kindIcon} style={{ width: size, height: size }} aria-hidden="true">
      <Icon size={Math.round(size / 2)} />
    </span>
  );
}

/** The item's kind as a badge: an app's mode, a tool's type, a prompt's scene. */
export function KindBadge({ item }: { item: Pick<StoreItem, 'type' | 'kind'> }) {
  const { t } = useTranslation(['store', 'apps']);
  if (!item.kind) return null;
  const label = item.type === 'app' ? t(`apps:modes.${item.kind}` as never) : item.type === 'tool' ? t(`store:toolTypes.${item.kind}` as never) : t(`store:scenes.${item.kind}` as never);
  return (
    <Badge variant="info" appearance="outline" data-kind={item.kind}>
      {label}
    </Badge>
  );
}

/** The small figure a card shows: documents and segments, functions, variables. */
export function statsText(t: (k: string, o?: object) => string, item: StoreItem): string {
  if (item.type === 'dataset') return `${t('detail.stats.documents', { count: item.stats.documents })} · ${t('detail.stats.segments', { count: item.stats.segments })}`;
  if (item.type === 'tool') return t('detail.stats.functions', { count: item.stats.functions });
  if (item.type === 'prompt') return t('detail.stats.variables', { count: item.stats.variables });
  return item.version ? `v${item.version}` : '';
}

export interface StoreCardProps {
  item: StoreItem;
  /** Where the card opens. */
  to: string;
  /** Show the review state (the system store lists every state; the gallery only released items). */
  showState?: boolean;
}

/**
 * A gallery card: icon, name (opens the detail), kind, tags, description, the source space and the copy
 * count; a plugin's: what it adds, its author and version, and its install count.
 * @example <StoreCard item={item} to={detailPath('app', item.id)} />
 */
export function StoreCard({ item, to, showState }: StoreCardProps) {
  const { t } = useTranslation('store');
  const tt = t as unknown as (k: string, o?: object) => string;
  return (
    <Card interactive className={s.card} data-testid="store-card" data-item-id={item.id}>
      <div className={s.cardTop}>
        <StoreItemIcon item={item} />
        <div className={s.cardHeading}>
          <Link to={to} className={s.cardLink} aria-label={t('gallery.open', { name: item.name })} data-testid="store-card-open">
            {item.name}
          </Link>
          <span className={s.badges}>
            <KindBadge item={item} />
            {showState && <Badge variant={REVIEW_TONE[item.review_state]}>{t(`review.${item.review_state}`)}</Badge>}
            {item.tags.slice(0, 3).map((tag) => (
              <Badge key={tag} variant="neutral">
                {tag}
              </Badge>
            ))}
          </span>
        </div>
      </div>
      <p className={s.description}>{item.description}</p>
      {/* A plugin comes from no project space and is installed, not copied: its author, what it adds, its installs. */}
      {item.plugin ? (
        <PluginMeta item={item} facts={item.plugin} />
      ) : (
        <div className={s.meta}>
          <span className={`${s.ellipsis} ${s.metaSource}`} title={seededName(item.source_workspace_name)}>
            {t('gallery.from', { space: seededName(item.source_workspace_name) })}
          </span>
          <span className={s.ellipsis}>{statsText(tt, item)}</span>
          <span className={s.nowrap} data-testid="store-card-copies">
            {t('gallery.copies', { count: item.copy_count })}
          </span>
        </div>
      )}
    </Card>
  );
}

/** A plugin card's foot: the node kinds and tools it adds (the first few), its author and version, its installs. */
function PluginMeta({ item, facts }: { item: StoreItem; facts: NonNullable<StoreItem['plugin']> }) {
  const { t } = useTranslation('store');
  const adds = [...facts.kinds, ...facts.tools];
  const shown = adds.slice(0, 3);
  return (
    <div className={s.meta}>
      <span className={`${s.metaSource} ${s.pluginAdds}`} data-testid="store-card-adds" title={adds.join(', ')}>
        {shown.map((name) => (
          <code key={name} className={s.pluginAdd}>
            {name}
          </code>
        ))}
        {adds.length > shown.length && <span>{t('gallery.more', { count: adds.length - shown.length })}</span>}
        {adds.length === 0 && <span>{t('gallery.addsNothing')}</span>}
      </span>
      <span className={s.ellipsis} data-testid="store-card-author" title={facts.author}>
        {[facts.author && t('gallery.author', { name: facts.author }), item.version && `v${item.version}`].filter(Boolean).join(' · ')}
      </span>
      <span className={s.nowrap} data-testid="store-card-installs">
        {t('gallery.installs', { count: item.copy_count })}
      </span>
    </div>
  );
}

/** A card's shape while the first page loads. */
export function StoreCardSkeleton() {
  return (
    <Card className={s.card}>
      <div className={s.cardTop}>
        <Skeleton width={40} height={40} />
        <div className={s.cardHeading}>
          <Skeleton width={140} height={14} />
          <Skeleton width={72} height={12} />
        </div>
      </div>
      <Skeleton width="90%" height={12} />
    </Card>
  );
}
