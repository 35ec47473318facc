/**
 * The project space whose data GBI uses. The portal has no project-space switcher of its own: the
 * session's current space when the user is in it, else their first; a picker changes it (and the
 * session's current space, as the console's switcher does).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { Workspace } from '../../../../schemas/workspace';
import { listWorkspaces } from '../../../api/workspaces';
import { SelectInput } from '../../../kit/widgets/select-input';
import { useSession } from '../../session';
import { settleLoadError } from '../load-error';
import s from './gbi.module.css';
import { seededName } from '../../../i18n/seeded';

type Space = z.output<typeof Workspace>;

export function useGbiSpace() {
  const current = useSession((s) => s.workspaceId);
  const setWorkspace = useSession((s) => s.setWorkspace);
  const [spaces, setSpaces] = useState<Space[] | null>(null);
  useEffect(() => {
    const ctrl = new AbortController();
    listWorkspaces({}, { signal: ctrl.signal }).then(
      (p) => setSpaces(p.items),
      (e: unknown) => {
        if (!settleLoadError(e)) setSpaces([]);
      },
    );
    return () => ctrl.abort();
  }, []);
  const workspaceId = spaces?.some((w) => w.id === current) ? current : (spaces?.[0]?.id ?? null);
  const role = spaces?.find((w) => w.id === workspaceId)?.role_type;
  return { spaces, workspaceId, canManage: role === 'owner' || role === 'admin', setWorkspace };
}

export function SpacePicker({ space }: { space: ReturnType<typeof useGbiSpace> }) {
  const { t } = useTranslation('portal');
  if (!space.spaces?.length) return null;
  return (
    <div className={s.picker}>
      <SelectInput
        aria-label={t('gbi.workspace')}
        size="sm"
        value={space.workspaceId}
        onChange={(v) => v && space.setWorkspace(v)}
        options={space.spaces.map((w) => ({ value: w.id, label: seededName(w.name) }))}
      />
    </div>
  );
}
