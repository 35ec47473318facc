/**
 * /operation/app/:appId/digital-human (spec 2; issue 31): the app as a digital human. Its kind
 * (conversational for chatflow and agent apps, broadcast for workflow apps) and the character of its
 * space it speaks as; for a broadcast app, its videos (broadcast-panel.tsx).
 */
import { ScanFace } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { KIND_APP_TYPES, type Character, type DigitalHumanApp, type DigitalHumanKind } from '../../../../../schemas/digital-human';
import { clearDigitalHuman, getDigitalHuman, listCharacters, setDigitalHuman } from '../../../../api/digital-humans';
import { describeError } from '../../../../api/reactions';
import { SelectInput } from '../../../../kit/widgets/select-input';
import { Button, Card, EmptyState, Field } from '../../../../ui';
import { Spinner } from '../../../../ui/spinner';
import { toast } from '../../../../ui/toast';
import { Page, PageHeader } from '../../../shell/page';
import { useEditorContext } from '../editor-layout';
import { BroadcastPanel } from './broadcast-panel';
import s from './digital-human.module.css';

const NONE = 'none';

export default function DigitalHumanPage() {
  const { t } = useTranslation(['digitalHuman', 'apps']);
  const { app } = useEditorContext();
  const workspaceId = app?.workspace_id ?? '';
  const [dh, setDh] = useState<DigitalHumanApp | null | undefined>(undefined);
  const [chars, setChars] = useState<Character[] | null>(null);
  const [kind, setKind] = useState<string>(NONE);
  const [characterId, setCharacterId] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!app) return;
    getDigitalHuman(app.id, { workspaceId }).then((d) => {
      setDh(d);
      setKind(d?.kind ?? NONE);
      setCharacterId(d?.character?.id ?? null);
    }, () => setDh(null));
    listCharacters({ page_size: 1000 }, { workspaceId }).then((p) => setChars(p.items), () => setChars([]));
  }, [app, workspaceId]);

  if (!app || dh === undefined) return <Spinner />;
  const kinds = (['conversation', 'broadcast'] as const).filter((k) => KIND_APP_TYPES[k].includes(app.type));
  const character = chars?.find((c) => c.id === characterId) ?? dh?.character ?? null;
  const dirty = kind !== (dh?.kind ?? NONE) || characterId !== (dh?.character?.id ?? null);

  const save = async () => {
    setSaving(true);
    setFailure(null);
    try {
      if (kind === NONE) {
        await clearDigitalHuman(app.id, { workspaceId, reaction: 'silent' });
        setDh(null);
      } else {
        setDh(await setDigitalHuman(app.id, { kind: kind as DigitalHumanKind, character_id: characterId }, { workspaceId, reaction: 'silent' }));
      }
      toast.success(t('app.saved'));
    } catch (e) {
      setFailure(describeError(e, 'silent')?.text ?? String(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Page data-testid="digital-human-page">
      <PageHeader title={t('app.title')} description={kind === NONE ? t('app.notDigitalHumanHint') : t(`kinds.${kind as DigitalHumanKind}Help`)} />
      <Card className={s.setup}>
        {kinds.length === 0 ? (
          <EmptyState icon={<ScanFace aria-hidden="true" />} title={t('app.wrongType', { type: t(`apps:modes.${app.type}`) })} />
        ) : (
          <div className={s.setupRow}>
            <div className={s.fields}>
              <Field label={t('app.kind')} data-testid="dh-kind">
                <SelectInput
                  value={kind}
                  onChange={(v) => setKind(v ?? NONE)}
                  options={[{ value: NONE, label: t('kinds.none') }, ...kinds.map((k) => ({ value: k, label: t(`kinds.${k}`) }))]}
                />
              </Field>
              {kind !== NONE && (
                <Field label={t('app.character')} data-testid="dh-character">
                  <SelectInput
                    value={characterId}
                    onChange={(v) => setCharacterId(v ?? null)}
                    options={(chars ?? []).map((c) => ({ value: c.id, label: c.name }))}
                    placeholder={chars?.length === 0 ? t('app.noCharacters') : t('app.chooseCharacter')}
                  />
                </Field>
              )}
              <div className={s.buttons}>
                <Button variant="primary" disabled={!dirty || saving} loading={saving} onClick={() => void save()} data-testid="dh-save">
                  {t('app.save')}
                </Button>
                <Button asChild variant="ghost">
                  <Link to={`/operation/workspace/${encodeURIComponent(workspaceId)}/character`}>{t('app.manageCharacters')}</Link>
                </Button>
              </div>
              {failure && (
                <p className={s.failure} role="alert">
                  {failure}
                </p>
              )}
            </div>
            {kind !== NONE && character && (
              <div className={s.character} data-testid="dh-character-card">
                <div className={s.portrait}>{character.portrait ? <img src={character.portrait.url} alt={character.name} /> : <ScanFace aria-hidden="true" />}</div>
                <div>
                  <p className={s.characterName}>{character.name}</p>
                  {character.greeting && <p className={s.greeting}>“{character.greeting}”</p>}
                  {character.persona && <p className={s.persona}>{character.persona}</p>}
                </div>
              </div>
            )}
          </div>
        )}
      </Card>
      {dh?.kind === 'broadcast' && <BroadcastPanel appId={app.id} workspaceId={workspaceId} ready={Boolean(dh.character?.portrait || dh.character?.idle_clip)} />}
    </Page>
  );
}
