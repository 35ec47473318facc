/**
 * The plugin store's detail parts (issue 23): author, latest version, installs and checksum, the node
 * kinds and tools the package adds, and every published version, each downloadable and installable by
 * a super admin (the server checks the stored package as it checks an upload). Presentational:
 * installing and downloading come in by props (the store manager's page shows neither).
 */
import { Download, FileDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { StoreSnapshot } from '../../../schemas/store';
import { formatDateTime } from '../../kit/widgets/datetime';
import { Badge, Button, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../ui';
import { Fact, Section } from './store-detail-parts';
import s from './store.module.css';

type PluginSnap = Extract<StoreSnapshot, { type: 'plugin' }>;

export interface PluginPartsProps {
  snapshot: PluginSnap;
  version: string | null;
  /** Installs from the store (the listing's count). */
  installs: number;
  /** A super admin's: install a version (the server checks it as an upload). */
  onInstall?: (version: string) => void;
  /** Download a version's package file. */
  onDownload?: (version: string) => void;
  busy?: boolean;
}

export function PluginParts({ snapshot, version, installs, onInstall, onDownload, busy }: PluginPartsProps) {
  const { t } = useTranslation('store');
  const actions = onInstall || onDownload;
  return (
    <>
      <div className={s.facts} data-testid="store-plugin-facts">
        <Fact label={t('detail.plugin.author')} value={<span data-testid="store-plugin-author">{snapshot.author || '—'}</span>} />
        <Fact label={t('detail.plugin.version')} value={<span data-testid="store-plugin-version">{version ?? '—'}</span>} />
        <Fact label={t('detail.plugin.minWeft')} value={snapshot.min_weft_version} />
        <Fact label={t('detail.plugin.installs')} value={<span data-testid="store-plugin-installs">{installs}</span>} />
        <Fact
          label={t('detail.plugin.checksum')}
          value={
            <code className={s.checksum} title={snapshot.checksum} data-testid="store-plugin-checksum">
              {snapshot.checksum}
            </code>
          }
        />
      </div>
      <Section title={t('detail.plugin.kinds')} testId="store-plugin-kinds">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t('detail.plugin.kind')}</TableHead>
              <TableHead>{t('detail.plugin.kindVersion')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {snapshot.kinds.map((k) => (
              <TableRow key={k.kind}>
                <TableCell>
                  <code>{k.kind}</code>
                </TableCell>
                <TableCell>{k.version}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Section>
      {snapshot.tools.length > 0 && (
        <Section title={t('detail.plugin.tools')}>
          <div className={s.inline}>
            {snapshot.tools.map((tool) => (
              <Badge key={tool.name} title={tool.description}>
                {tool.name}
              </Badge>
            ))}
          </div>
        </Section>
      )}
      <Section title={t('detail.plugin.versions')} testId="store-plugin-versions">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t('detail.plugin.versionColumn')}</TableHead>
              <TableHead>{t('detail.plugin.minWeft')}</TableHead>
              <TableHead>{t('detail.plugin.publishedAt')}</TableHead>
              {actions && <TableHead />}
            </TableRow>
          </TableHeader>
          <TableBody>
            {snapshot.versions.map((v) => (
              <TableRow key={v.version} data-testid="store-plugin-version-row">
                <TableCell>
                  <strong>{v.version}</strong>
                </TableCell>
                <TableCell>{v.min_weft_version}</TableCell>
                <TableCell>{formatDateTime(v.published_at, { withSeconds: false })}</TableCell>
                {actions && (
                  <TableCell>
                    {onDownload && (
                      <Button size="sm" variant="ghost" icon={<FileDown aria-hidden="true" />} onClick={() => onDownload(v.version)} data-testid="store-plugin-version-download">
                        {t('detail.plugin.downloadVersion', { version: v.version })}
                      </Button>
                    )}
                    {onInstall && (
                      <Button size="sm" variant="ghost" icon={<Download aria-hidden="true" />} disabled={busy} onClick={() => onInstall(v.version)}>
                        {t('detail.plugin.installVersion', { version: v.version })}
                      </Button>
                    )}
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Section>
    </>
  );
}
