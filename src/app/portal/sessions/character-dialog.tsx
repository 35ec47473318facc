/**
 * The sessions page's character settings (spec 2 "character settings"; issue 31). For every
 * conversation: the persona the app keeps in mind in it (saved on the conversation). For a
 * digital-human app (one speaking as a character): the character itself — its portrait or idle
 * clip, name, greeting and voice — and what the user may choose about it: whether its answers are
 * read out and at which speed within the character's range, kept per user and app (../voice-prefs.ts).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CHARACTER_SPEED_MAX, CHARACTER_SPEED_MIN, type PortalCharacter } from '../../../../schemas/digital-human';
import { PERSONA_MAX } from '../../../../schemas/portal';
import { Button } from '../../../ui/button';
import { Field } from '../../../ui/field';
import { Switch } from '../../../ui/switch';
import { Textarea } from '../../../ui/textarea';
import { usePortalApi } from '../portal-api';
import { useVoicePrefs } from '../voice-prefs';
import { FormDialog, type SaveDialogProps } from './session-dialogs';
import s from './sessions.module.css';

const speedText = (n: number) => `${n.toFixed(2).replace(/0$/, '')}×`;

/** The character as the user meets it in the chat: look, name, greeting and voice. */
function CharacterCard({ character, voiceOn }: { character: PortalCharacter; voiceOn: boolean }) {
  const { t } = useTranslation('portal');
  const v = character.voice;
  const voice = [v.voice, v.model].filter(Boolean).join(' · ') || t('characterSettings.defaultVoice');
  return (
    <div className={s.characterCard} data-testid="character-card">
      <div className={s.characterLook}>
        {character.idle_clip_url ? (
          <video src={character.idle_clip_url} muted loop autoPlay playsInline aria-label={character.name} />
        ) : character.portrait_url ? (
          <img src={character.portrait_url} alt={character.name} />
        ) : (
          <span aria-hidden="true">{character.name.slice(0, 1)}</span>
        )}
      </div>
      <dl className={s.characterFacts}>
        <dt>{t('characterSettings.name')}</dt>
        <dd data-testid="character-card-name">{character.name}</dd>
        <dt>{t('characterSettings.greeting')}</dt>
        <dd data-testid="character-card-greeting">{character.greeting || t('characterSettings.noGreeting')}</dd>
        <dt>{t('characterSettings.voice')}</dt>
        <dd data-testid="character-card-voice">{voiceOn ? `${voice} · ${speedText(v.speed)}` : t('characterSettings.voiceOff')}</dd>
      </dl>
    </div>
  );
}

export function CharacterDialog({ conversation, onClose, onSave }: SaveDialogProps) {
  const { t } = useTranslation('portal');
  const api = usePortalApi();
  const appId = conversation?.app_id ?? null;
  const [persona, setPersona] = useState('');
  const [app, setApp] = useState<{ character: PortalCharacter | null; speaks: boolean } | null>(null);
  const [prefs, savePrefs] = useVoicePrefs(appId);
  const [speak, setSpeak] = useState(prefs.speak);
  const [speed, setSpeed] = useState<number | null>(prefs.speed);

  useEffect(() => setPersona(conversation?.persona ?? ''), [conversation]);
  useEffect(() => {
    setSpeak(prefs.speak);
    setSpeed(prefs.speed);
  }, [prefs, conversation]);
  // The app's character (null for an ordinary app): the popup shows the persona alone meanwhile.
  useEffect(() => {
    setApp(null);
    if (!appId) return;
    const ctrl = new AbortController();
    api.getApp(appId, { signal: ctrl.signal }).then(
      (a) => setApp({ character: a.character ?? null, speaks: a.features.text_to_speech }),
      () => setApp(null),
    );
    return () => ctrl.abort();
  }, [api, appId]);

  const character = app?.character ?? null;
  const shownSpeed = speed ?? character?.voice.speed ?? 1;
  return (
    <FormDialog
      open={conversation !== null}
      title={t('character.title')}
      description={t('character.description', { count: PERSONA_MAX })}
      testId="character-dialog"
      onClose={onClose}
      canSave={persona.length <= PERSONA_MAX}
      onSubmit={async () => {
        await onSave(conversation!, { persona: persona.trim() });
        if (character) savePrefs({ speak, speed });
      }}
    >
      {character && (
        <section className={s.characterSection} aria-label={t('characterSettings.title')}>
          <CharacterCard character={character} voiceOn={app?.speaks ?? false} />
          {app?.speaks && (
            <>
              <label className={s.switchRow}>
                <Switch checked={speak} onCheckedChange={setSpeak} data-testid="character-speak" />
                {t('characterSettings.speak')}
              </label>
              <div className={s.speedRow}>
                <label htmlFor="character-speed">{t('characterSettings.speed')}</label>
                <input
                  id="character-speed"
                  type="range"
                  min={CHARACTER_SPEED_MIN}
                  max={CHARACTER_SPEED_MAX}
                  step={0.05}
                  value={shownSpeed}
                  disabled={!speak}
                  onChange={(e) => setSpeed(Number(e.target.value))}
                  data-testid="character-speed"
                />
                <output htmlFor="character-speed" data-testid="character-speed-value">
                  {speedText(shownSpeed)}
                </output>
                {speed !== null && (
                  <Button type="button" size="sm" variant="ghost" onClick={() => setSpeed(null)}>
                    {t('characterSettings.characterSpeed')}
                  </Button>
                )}
              </div>
            </>
          )}
        </section>
      )}
      <Field label={t('character.persona')}>
        <Textarea value={persona} rows={character ? 3 : 6} maxLength={PERSONA_MAX} placeholder={t('character.placeholder')} onChange={(e) => setPersona(e.target.value)} autoFocus />
      </Field>
      <div className={s.counterRow}>
        <span className={s.counter}>
          {persona.length} / {PERSONA_MAX}
        </span>
        {persona && (
          <Button type="button" size="sm" variant="ghost" onClick={() => setPersona('')}>
            {t('character.clear')}
          </Button>
        )}
      </div>
    </FormDialog>
  );
}
