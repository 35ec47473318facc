import { ArrowRightLeft, UserMinus } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Member, MemberRole } from '../../../../schemas/workspace';
import { Avatar } from '../../../ui/avatar';
import { Badge, type BadgeVariant } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { Select } from '../../../ui/select';
import { Skeleton } from '../../../ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../ui/table';
import type { AssignableRole } from './member-api';
import { formatDateTime } from './report-error';
import s from './member-page.module.css';
import { seededName } from '../../../i18n/seeded';

const roleVariant: Record<MemberRole, BadgeVariant> = { owner: 'warning', admin: 'info', ordinary_member: 'neutral' };

export function RoleBadge({ role }: { role: MemberRole }) {
  const { t } = useTranslation('member');
  return (
    <Badge variant={roleVariant[role]} data-role={role}>
      {t(`roles.${role}`)}
    </Badge>
  );
}

export interface MemberTableProps {
  members: Member[] | null;
  /** The caller's role in the workspace (null while unknown: no actions). */
  myRole: MemberRole | null;
  /** The caller's user id (marked 'You'; the caller's own row has no actions). */
  meId: string | null;
  /** Number of skeleton rows while `members` is null. */
  skeletonRows?: number;
  /** Shown in place of the rows (empty state, error). */
  placeholder?: ReactNode;
  busy?: boolean;
  onRoleChange: (member: Member, role: AssignableRole) => void;
  onTransfer: (member: Member) => void;
  onRemove: (member: Member) => void;
}

/**
 * Members (spec 3 "Project member": name, serial number, account, role, nick name, added time). The
 * owner gets an inline role select and transfer / remove on every other member's row.
 */
export function MemberTable({ members, myRole, meId, skeletonRows = 5, placeholder, busy, onRoleChange, onTransfer, onRemove }: MemberTableProps) {
  const { t } = useTranslation('member');
  const owner = myRole === 'owner';
  const columns = owner ? 7 : 6;
  return (
    <Table size="sm" striped aria-busy={members === null || busy || undefined} data-testid="member-table" className={s.table} wrapperClassName={busy ? s.busy : undefined}>
      <TableHeader>
        <TableRow>
          <TableHead className={s.colName}>{t('columns.name')}</TableHead>
          <TableHead>{t('columns.serialNumber')}</TableHead>
          <TableHead>{t('columns.account')}</TableHead>
          <TableHead className={s.colRole}>{t('columns.role')}</TableHead>
          <TableHead>{t('columns.nickName')}</TableHead>
          <TableHead>{t('columns.addedAt')}</TableHead>
          {owner && <TableHead className={s.colActions}>{t('columns.actions')}</TableHead>}
        </TableRow>
      </TableHeader>
      <TableBody>
        {members === null ? (
          Array.from({ length: skeletonRows }, (_, i) => (
            <TableRow key={i}>
              {Array.from({ length: columns }, (__, j) => (
                <TableCell key={j}>
                  <Skeleton height={12} width={j === 0 ? 120 : 72} />
                </TableCell>
              ))}
            </TableRow>
          ))
        ) : placeholder != null ? (
          <TableRow className={s.placeholderRow}>
            <TableCell colSpan={columns}>{placeholder}</TableCell>
          </TableRow>
        ) : (
          members.map((m) => {
            const isMe = m.user_id === meId;
            const editable = owner && m.role !== 'owner' && !isMe;
            return (
              <TableRow key={m.id} data-testid={`member-row-${m.id}`} data-user-id={m.user_id}>
                <TableCell>
                  <span className={s.person}>
                    <Avatar name={m.name} src={m.avatar || null} size="sm" colorSeed={m.user_id} />
                    <span className={s.personName}>{seededName(m.name)}</span>
                    {isMe && (
                      <Badge appearance="outline" className={s.you}>
                        {t('you')}
                      </Badge>
                    )}
                  </span>
                </TableCell>
                <TableCell className={s.mono}>{m.serial_number || '—'}</TableCell>
                <TableCell>{m.account}</TableCell>
                <TableCell>
                  {editable ? (
                    <Select
                      size="sm"
                      className={s.roleSelect}
                      value={m.role}
                      disabled={busy}
                      aria-label={t('actions.roleOf', { name: m.name })}
                      onValueChange={(v) => v !== m.role && onRoleChange(m, v as AssignableRole)}
                      options={[
                        { value: 'admin', label: t('roles.admin') },
                        { value: 'ordinary_member', label: t('roles.ordinary_member') },
                      ]}
                    />
                  ) : (
                    <RoleBadge role={m.role} />
                  )}
                </TableCell>
                <TableCell>{m.nick_name || '—'}</TableCell>
                <TableCell className={s.time}>{formatDateTime(m.added_at)}</TableCell>
                {owner && (
                  <TableCell>
                    {editable && (
                      <span className={s.rowActions}>
                        <Button
                          size="sm"
                          variant="ghost"
                          icon={<ArrowRightLeft aria-hidden="true" />}
                          aria-label={t('actions.transferTo', { name: m.name })}
                          data-testid={`member-transfer-${m.id}`}
                          onClick={() => onTransfer(m)}
                        >
                          {t('actions.transfer')}
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          className={s.danger}
                          icon={<UserMinus aria-hidden="true" />}
                          aria-label={t('actions.removeNamed', { name: m.name })}
                          data-testid={`member-remove-${m.id}`}
                          onClick={() => onRemove(m)}
                        >
                          {t('actions.remove')}
                        </Button>
                      </span>
                    )}
                  </TableCell>
                )}
              </TableRow>
            );
          })
        )}
      </TableBody>
    </Table>
  );
}
