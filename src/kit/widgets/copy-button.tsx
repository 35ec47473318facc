import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, type ButtonSize, type ButtonVariant } from '../../ui/button';
import { toast } from '../../ui/toast';

/**
 * Writes text to the clipboard. `navigator.clipboard` exists only in secure contexts (https,
 * localhost); on plain http to an intranet host the old `execCommand('copy')` on a hidden text area
 * still works. Answers whether either did.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Denied (no permission, no focus): try the old way.
  }
  // The text area goes inside the open dialog, if any: a modal's focus trap would pull the focus (and
  // with it the selection) back out of an element outside it. Focus returns where it was.
  const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const host = before?.closest('[role="dialog"], [role="alertdialog"]') ?? document.body;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  host.appendChild(area);
  area.focus();
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
    before?.focus();
  }
}

export interface CopyButtonProps {
  /** What is copied. */
  text: string;
  /** The button's text (default: "Copy"); with `iconOnly` it is the accessible name. */
  label?: ReactNode;
  iconOnly?: boolean;
  size?: ButtonSize;
  variant?: ButtonVariant;
  className?: string;
  onCopied?: () => void;
  'data-testid'?: string;
}

/**
 * A button that copies `text` and shows a tick for a moment (a toast when the clipboard refused).
 * @example <CopyButton text={snippet} size="sm" data-testid="embed-copy" />
 */
export function CopyButton({ text, label, iconOnly, size = 'sm', variant = 'secondary', className, onCopied, ...rest }: CopyButtonProps) {
  const { t } = useTranslation('kit');
  const [done, setDone] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    if (!(await copyText(text))) {
      toast.error(t('copy.failed'));
      return;
    }
    setDone(true);
    onCopied?.();
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setDone(false), 1500);
  };
  const name = done ? t('copy.copied') : (label ?? t('copy.copy'));
  const icon = done ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />;
  return (
    <Button
      type="button"
      variant={variant}
      size={size}
      className={className}
      iconOnly={iconOnly}
      icon={iconOnly ? undefined : icon}
      aria-label={iconOnly && typeof name === 'string' ? name : undefined}
      title={iconOnly && typeof name === 'string' ? name : undefined}
      data-copied={done || undefined}
      onClick={() => void copy()}
      data-testid={rest['data-testid']}
    >
      {iconOnly ? icon : name}
    </Button>
  );
}
