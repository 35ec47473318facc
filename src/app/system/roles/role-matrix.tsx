import { Check, Minus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { SystemRole } from '../../../../schemas/auth';
import type { RolesOverview } from '../../../../schemas/role';
import { Badge } from '../../../ui/badge';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../ui/table';
import s from './roles.module.css';

/**
 * The roles side by side: each role's holders and summary, then one row per rule the server enforces
 * (as GET /admin/roles serves them, grouped by menu) with a tick where the role holds it.
 */
export function RoleMatrix({ overview }: { overview: RolesOverview }) {
  const { t } = useTranslation('roles');
  const roles = overview.roles.map((r) => r.role);
  const areas = [...new Set(overview.permissions.map((p) => p.area))];
  return (
    <div className={s.matrixArea}>
      <div className={s.roleCards} data-testid="role-cards">
        {overview.roles.map((r) => (
          <div key={r.role} className={s.roleCard} data-role={r.role}>
            <div className={s.roleCardHead}>
              <strong>{t(`names.${r.role}`)}</strong>
              <Badge variant="neutral">{t('holders', { count: r.holders })}</Badge>
            </div>
            <p className={s.roleSummary}>{t(`summaries.${r.role}`)}</p>
          </div>
        ))}
      </div>
      <Table size="sm" aria-label={t('matrix.label')} data-testid="role-matrix" className={s.matrix}>
          <TableHeader>
            <TableRow>
              <TableHead>{t('matrix.permission')}</TableHead>
              <TableHead className={s.scopeCol}>{t('matrix.scope')}</TableHead>
              {roles.map((role) => (
                <TableHead key={role} className={s.roleCol}>
                  {t(`names.${role}`)}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {areas.flatMap((area) => [
              <TableRow key={`area-${area}`} className={s.areaRow}>
                <TableCell colSpan={2 + roles.length}>{t(`areas.${area}`)}</TableCell>
              </TableRow>,
              ...overview.permissions
                .filter((p) => p.area === area)
                .map((p) => (
                  <TableRow key={p.key} data-permission={p.key}>
                    <TableCell>
                      {/* A rule the client has no text for yet still shows, by its key. */}
                      {t(`permissions.${p.key}`, { defaultValue: p.key })}
                    </TableCell>
                    <TableCell className={s.scopeCol}>{t(`scopes.${p.scope}`)}</TableCell>
                    {roles.map((role) => (
                      <TableCell key={role} className={s.roleCol}>
                        <Mark granted={p.roles.includes(role as SystemRole)} />
                      </TableCell>
                    ))}
                  </TableRow>
                )),
            ])}
          </TableBody>
      </Table>
    </div>
  );
}

function Mark({ granted }: { granted: boolean }) {
  const { t } = useTranslation('roles');
  return granted ? (
    <Check className={s.granted} size={16} role="img" aria-label={t('matrix.granted')} />
  ) : (
    <Minus className={s.denied} size={16} role="img" aria-label={t('matrix.denied')} />
  );
}
