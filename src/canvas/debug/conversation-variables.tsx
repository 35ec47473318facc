import { RotateCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConversationVariable } from '../../../schemas/flow';
import { describeError } from '../../api/reactions';
import { Button } from '../../ui/button';
import { Field } from '../../ui/field';
import { Input } from '../../ui/input';
import { toast } from '../../ui/toast';
import type { DebugApi } from './debug-api';
import s from './debug.module.css';

export interface ConversationVariablesProps {
  api: DebugApi;
  /** The debug conversation; none yet: the declared defaults are shown, read-only. */
  conversationId?: string;
  /** The flow's conversation variables (names, types and defaults). */
  declared: readonly ConversationVariable[];
  /** Changes after each run, to read the values the run left. */
  version: number;
  disabled?: boolean;
}

/** Text a value is edited as: strings as they are, everything else as JSON. */
const asText = (v: unknown, type: string) => (type === 'string' && typeof v === 'string' ? v : JSON.stringify(v ?? null));

function fromText(text: string, type: string): { ok: true; value: unknown } | { ok: false } {
  if (type === 'string') return { ok: true, value: text };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The conversation variables of the debug conversation: shown after each run, editable (PUT variables). */
export function ConversationVariables({ api, conversationId, declared, version, disabled }: ConversationVariablesProps) {
  const { t } = useTranslation('debug');
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [bad, setBad] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [nonce, setNonce] = useState(0);
  const typeOf = (name: string) => declared.find((d) => d.name === name)?.type ?? 'object';

  useEffect(() => {
    const defaults = Object.fromEntries(declared.map((d) => [d.name, asText(d.value, d.type)]));
    if (!conversationId) {
      setTexts(defaults);
      return;
    }
    let live = true;
    api.getVariables(conversationId).then(
      (vars) => live && setTexts({ ...defaults, ...Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, asText(v, typeOf(k))])) }),
      (e: unknown) => live && toast.error(describeError(e)?.text ?? ''),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, conversationId, declared, version, nonce]);

  const names = Object.keys(texts);
  if (!names.length) return <p className={s.muted}>{t('variables.none')}</p>;

  const save = async () => {
    if (!conversationId) return;
    const values: Record<string, unknown> = {};
    const wrong: string[] = [];
    for (const name of names) {
      const r = fromText(texts[name], typeOf(name));
      if (r.ok) values[name] = r.value;
      else wrong.push(name);
    }
    setBad(wrong);
    if (wrong.length) return;
    setBusy(true);
    try {
      await api.setVariables(conversationId, values);
      toast.success(t('variables.saved'));
    } catch {
      // The request layer showed why.
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={s.form} data-testid="conversation-variables">
      {!conversationId && <p className={s.muted}>{t('variables.notYet')}</p>}
      {names.map((name) => (
        <Field key={name} label={name} error={bad.includes(name) ? t('variables.invalidJson', { name }) : undefined}>
          <Input
            value={texts[name]}
            readOnly={!conversationId}
            disabled={disabled}
            data-testid={`conversation-variable-${name}`}
            onChange={(e) => setTexts((x) => ({ ...x, [name]: e.target.value }))}
          />
        </Field>
      ))}
      {conversationId && (
        <div className={s.row}>
          <Button size="sm" variant="primary" loading={busy} disabled={disabled} onClick={() => void save()} data-testid="conversation-variables-save">
            {t('variables.save')}
          </Button>
          <Button size="sm" variant="ghost" icon={<RotateCw aria-hidden="true" />} disabled={disabled} onClick={() => setNonce((n) => n + 1)}>
            {t('variables.reload')}
          </Button>
        </div>
      )}
    </div>
  );
}
