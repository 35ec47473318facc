/**
 * /operation/workspace/:workspace_id/character: the digital-human characters of a project space
 * (issue 31). A tab of the space beside prompts: a character is a resource the space's apps share
 * (as in Coze's resource library), not part of one app. Cards show the portrait, voice and how many
 * apps use it; every member creates and edits, owner and admin delete (one no app uses).
 */
import { Pencil, Plus, ScanFace, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { Character } from '../../../../schemas/digital-human';
import type { MemberRole } from '../../../../schemas/workspace';
import { deleteCharacter, listCharacters } from '../../../api/digital-humans';
import { getWorkspace } from '../../../api/workspaces';
import { SearchInput } from '../../../kit/widgets/search-input';
import { Button, Card, EmptyState } from '../../../ui';
import { confirm } from '../../../ui/confirm-store';
import { Spinner } from '../../../ui/spinner';
import { toast } from '../../../ui/toast';
import { Page, PageHeader } from '../../shell/page';
import { reportError } from '../members/report-error';
import { CharacterDialog } from './character-dialog';
import s from './characters.module.css';

export default function CharactersPage() {
  const { t } = useTranslation(['digitalHuman', 'common']);
  const { workspace_id: workspaceId = '' } = useParams();
  const [role, setRole] = useState<MemberRole | null>(null);
  const [name, setName] = useState('');
  const [rows, setRows] = useState<Character[] | null>(null);
  const [target, setTarget] = useState<Character | 'new' | null>(null);

  const load = useCallback(() => {
    listCharacters({ name: name || undefined, page_size: 200 }, { workspaceId }).then((p) => setRows(p.items), reportError);
  }, [name, workspaceId]);
  useEffect(load, [load]);
  useEffect(() => {
    getWorkspace(workspaceId).then((w) => setRole(w.role_type), reportError);
  }, [workspaceId]);

  const canDelete = role === 'owner' || role === 'admin';
  const remove = async (c: Character) => {
    if (!(await confirm({ title: t('page.confirmDelete', { name: c.name }), description: t('page.confirmDeleteText'), danger: true }))) return;
    try {
      await deleteCharacter(c.id, { workspaceId });
      toast.success(t('page.deleted'));
      load();
    } catch (e) {
      reportError(e);
    }
  };

  return (
    <Page data-testid="characters-page">
      <PageHeader
        title={t('page.title')}
        description={t('page.description')}
        actions={
          <Button variant="primary" icon={<Plus aria-hidden="true" />} onClick={() => setTarget('new')} data-testid="character-add">
            {t('page.add')}
          </Button>
        }
      />
      <div className={s.toolbar}>
        <SearchInput size="sm" className={s.search} value={name} onChange={setName} placeholder={t('page.search')} aria-label={t('page.search')} />
      </div>
      {rows === null ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <EmptyState
          icon={<ScanFace aria-hidden="true" />}
          title={name ? t('page.noMatch') : t('page.empty')}
          description={name ? undefined : t('page.emptyHint')}
          action={
            !name && (
              <Button variant="primary" icon={<Plus aria-hidden="true" />} onClick={() => setTarget('new')}>
                {t('page.add')}
              </Button>
            )
          }
        />
      ) : (
        <ul className={s.grid} data-testid="character-list">
          {rows.map((c) => (
            <li key={c.id}>
              <Card className={s.card} data-testid={`character-card-${c.id}`}>
                <div className={s.portrait}>{c.portrait ? <img src={c.portrait.url} alt="" /> : <span className={s.noPortrait}>{t('page.noPortrait')}</span>}</div>
                <div className={s.body}>
                  <h3 className={s.name}>{c.name}</h3>
                  <p className={s.meta}>{t('page.apps', { count: c.app_count })}</p>
                  {c.persona && <p className={s.persona}>{c.persona}</p>}
                </div>
                <div className={s.actions}>
                  <Button size="sm" variant="ghost" icon={<Pencil aria-hidden="true" />} onClick={() => setTarget(c)} data-testid="character-edit">
                    {t('page.edit')}
                  </Button>
                  {canDelete && (
                    <Button size="sm" variant="ghost" icon={<Trash2 aria-hidden="true" />} onClick={() => void remove(c)} data-testid="character-delete">
                      {t('page.delete')}
                    </Button>
                  )}
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <CharacterDialog
        workspaceId={workspaceId}
        target={target}
        onClose={() => setTarget(null)}
        onSaved={() => {
          setTarget(null);
          load();
        }}
      />
    </Page>
  );
}
