import { useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { type WidgetValueProps, ariaOf, isInvalid } from '../../kit/widgets/types';
import { cn } from '../../ui/cn';
import { Popover, PopoverAnchor, PopoverContent } from '../../ui/popover';
import { useNodeWidgetEnv } from './context';
import { useVariableLabels } from './labels';
import { LargeEditor } from './large-editor';
import { findTrigger, insertReference, tokenize, type TemplateTrigger } from './template';
import { filterVariables, findVariable, type VariableOption } from './variables';
import { flatOptions, VariableList } from './variable-picker';
import s from './widgets.module.css';

export interface TemplateEditorProps extends WidgetValueProps<string> {
  rows?: number;
  placeholder?: string;
  /**
   * The field's name for "Open large" (issue 27): given, a button in the box's corner opens the
   * same editor in a dialog of most of the viewport, editing the same value.
   */
  large?: string;
  /** A fixed height of the text area in px (the large dialog's); it then does not resize. */
  height?: number;
}

/**
 * A text field with `{{#nodeId.path#}}` references: the references are highlighted (an overlay
 * behind a transparent textarea, so typing, selection and undo stay native), and typing `{` or
 * `/` opens the list of variables this node may use (arrows, Enter or Tab to insert, Esc to close).
 * @example <TemplateEditor value={config.answer} onChange={(v) => set('answer', v)} rows={4} />
 */
export function TemplateEditor({ large, ...props }: TemplateEditorProps) {
  if (!large) return <TemplateField {...props} />;
  // The dialog's copy is named by the field (its label is the panel's) and has no id of its own:
  // the panel's stays mounted behind the dialog.
  const largeField = (height: number) => <TemplateField {...props} id={undefined} aria-labelledby={undefined} aria-label={large} height={height} />;
  return <TemplateField {...props} largeButton={<LargeEditor label={large} compact>{largeField}</LargeEditor>} />;
}

function TemplateField({ value, onChange, onBlur, rows = 3, placeholder, disabled, readOnly, className, height, largeButton, ...rest }: Omit<TemplateEditorProps, 'large'> & { largeButton?: ReactNode }) {
  const env = useNodeWidgetEnv();
  const { t, optionLabel } = useVariableLabels();
  const ref = useRef<HTMLTextAreaElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
  const [trigger, setTrigger] = useState<TemplateTrigger | null>(null);
  const [active, setActive] = useState(0);
  const text = value ?? '';
  const locked = disabled || readOnly || env.readOnly;
  const shown = useMemo(
    () => (trigger ? filterVariables(env.variables, { search: trigger.query, label: optionLabel }) : []),
    [trigger, env.variables, optionLabel],
  );
  const options = flatOptions(shown);

  const sync = (el: HTMLTextAreaElement) => {
    const next = findTrigger(el.value, el.selectionStart ?? el.value.length);
    setTrigger(next);
    setActive(0);
  };

  const pick = (o: VariableOption) => {
    const el = ref.current;
    const caret = el?.selectionStart ?? text.length;
    const out = insertReference(text, caret, o.selector, trigger);
    onChange(out.text);
    setTrigger(null);
    requestAnimationFrame(() => {
      if (!el) return;
      el.focus();
      el.setSelectionRange(out.caret, out.caret);
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!trigger || !options.length) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (a + step + options.length) % options.length);
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      pick(options[Math.min(active, options.length - 1)]);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setTrigger(null);
    }
  };

  return (
    <div className={cn(s.template, isInvalid(rest) && s.invalid, largeButton ? s.withLarge : undefined, className)} data-slot="template-editor">
      <Popover open={!!trigger && !locked}>
        <PopoverAnchor asChild>
          <div className={s.templateBox}>
            <div ref={backdrop} className={s.templateBackdrop} aria-hidden="true">
              {tokenize(text).map((seg) =>
                seg.kind === 'ref' ? (
                  <mark key={seg.start} className={s.token} data-broken={findVariable(env.variables, seg.selector) ? undefined : 'true'}>
                    {seg.text}
                  </mark>
                ) : (
                  <span key={seg.start}>{seg.text}</span>
                ),
              )}
              {/* A trailing newline needs a character to take up its line. */}
              {text.endsWith('\n') ? ' ' : null}
            </div>
            <textarea
              ref={ref}
              {...ariaOf(rest)}
              className={s.templateInput}
              value={text}
              rows={rows}
              style={height ? { height, resize: 'none' } : undefined}
              placeholder={placeholder}
              disabled={disabled}
              readOnly={readOnly || env.readOnly}
              spellCheck={false}
              aria-autocomplete="list"
              aria-expanded={!!trigger && options.length > 0}
              onChange={(e) => {
                onChange(e.target.value);
                sync(e.target);
              }}
              onSelect={(e) => trigger && sync(e.currentTarget)}
              onScroll={(e) => {
                if (backdrop.current) backdrop.current.scrollTop = e.currentTarget.scrollTop;
              }}
              onKeyDown={onKeyDown}
              onBlur={() => {
                setTrigger(null);
                onBlur?.();
              }}
            />
          </div>
        </PopoverAnchor>
        {/* In a portal, so the scrolling inspector does not clip it; the focus stays in the text. */}
        <PopoverContent
          className={s.popover}
          data-slot="template-completion"
          onOpenAutoFocus={(e) => e.preventDefault()}
          onCloseAutoFocus={(e) => e.preventDefault()}
          onEscapeKeyDown={() => setTrigger(null)}
          onInteractOutside={(e) => (e.target === ref.current ? e.preventDefault() : setTrigger(null))}
        >
          {trigger && options.length ? (
            <VariableList groups={shown} search={trigger.query} active={active} onPick={pick} />
          ) : (
            <p className={s.muted}>{t('variable.empty')}</p>
          )}
        </PopoverContent>
      </Popover>
      {largeButton}
    </div>
  );
}
