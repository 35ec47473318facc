/**
 * The plugin store's detail parts (issue 23): author and latest version, the node kinds and tools the
 * package adds, and every published version, each installable by a super admin (the server checks
 * the stored package as it checks an upload). Presentational: installing comes in by a prop.
 */
import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { StoreSnapshot } from '../../../schemas/store';
import { formatDateTime } from '../../kit/widgets/datetime';
import { Badge, Button, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../ui';
import { Fact, Section } from './store-detail-parts';
import s from './store.module.css';

type PluginSnap = Extract<StoreSnapshot, { type: 'plugin' }>;

export function PluginParts({ snapshot, version, onInstall, busy }: { snapshot: PluginSnap; version: string | null; onInstall?: (version: string) => void; busy?: boolean }) {
  const { t } = useTranslation('store');
  return (
    <>
      <div className={s.facts}>
        <Fact label={t('detail.plugin.author')} value={snapshot.author || '—'} />
        <Fact label={t('detail.plugin.version')} value={<span data-testid="store-plugin-version">{version ?? '—'}</span>} />
        <Fact label={t('detail.plugin.minWeft')} value={snapshot.min_weft_version} />
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
              {onInstall && <TableHead />}
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
                {onInstall && (
                  <TableCell>
                    <Button size="sm" variant="ghost" icon={<Download aria-hidden="true" />} disabled={busy} onClick={() => onInstall(v.version)}>
                      {t('detail.plugin.installVersion', { version: v.version })}
                    </Button>
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
