import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Input } from '../../ui/input';
import { Spinner } from '../../ui/spinner';
import { ariaOf, isInvalid, type WidgetValueProps } from './types';
import s from './widgets.module.css';

export interface SecretInputProps extends WidgetValueProps<string> {
  placeholder?: string;
  /**
   * Fetches a stored secret (the value on screen is then its mask, e.g. '******'). Called on the
   * first reveal; what it answers becomes the value, so editing starts from the real secret.
   */
  onReveal?: () => Promise<string>;
  autoComplete?: string;
  maxLength?: number;
}

/**
 * A masked text box with a show/hide toggle, for keys, SKs and passwords.
 * @example <SecretInput value={sk} onChange={setSk} onReveal={() => getCredentialSecret(id).then((r) => r.sk)} />
 */
export function SecretInput({ value, onChange, onBlur, onReveal, placeholder, disabled, readOnly, autoComplete = 'new-password', maxLength, className, ...rest }: SecretInputProps) {
  const { t } = useTranslation('kit');
  const [shown, setShown] = useState(false);
  const [fetched, setFetched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  const toggle = async () => {
    if (shown) return setShown(false);
    if (onReveal && !fetched) {
      setBusy(true);
      setFailed(false);
      try {
        const secret = await onReveal();
        setFetched(true);
        onChange(secret);
      } catch {
        setFailed(true);
        return;
      } finally {
        setBusy(false);
      }
    }
    setShown(true);
  };

  return (
    <div className={s.stack} data-slot="secret-input">
      <Input
        {...ariaOf(rest)}
        className={className}
        type={shown ? 'text' : 'password'}
        value={value ?? ''}
        invalid={isInvalid(rest)}
        placeholder={placeholder}
        disabled={disabled}
        readOnly={readOnly}
        autoComplete={autoComplete}
        maxLength={maxLength}
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        suffix={
          <button
            type="button"
            className={s.iconButton}
            aria-label={shown ? t('secret.hide') : t('secret.show')}
            aria-pressed={shown}
            disabled={disabled || busy}
            onClick={toggle}
          >
            {busy ? <Spinner size={14} label="" /> : shown ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
          </button>
        }
      />
      {failed && (
        <p className={s.inlineError} role="alert">
          {t('secret.revealFailed')}
        </p>
      )}
    </div>
  );
}
