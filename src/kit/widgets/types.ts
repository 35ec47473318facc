/** Props every kit widget accepts so <Field> (src/ui/field) can wire its label and messages. */
export interface ControlAria {
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-required'?: boolean;
  'aria-label'?: string;
  'aria-labelledby'?: string;
}

/** The value contract of a form widget: controlled, with optional blur. */
export interface WidgetValueProps<V> extends ControlAria {
  value: V;
  onChange: (value: V) => void;
  onBlur?: () => void;
  disabled?: boolean;
  readOnly?: boolean;
  /** Red border (also read from aria-invalid). */
  invalid?: boolean;
  className?: string;
}

/** Picks the aria props out of a props object (to put them on the focusable element). */
export function ariaOf(p: ControlAria): ControlAria {
  return {
    id: p.id,
    'aria-describedby': p['aria-describedby'],
    'aria-invalid': p['aria-invalid'],
    'aria-required': p['aria-required'],
    'aria-label': p['aria-label'],
    'aria-labelledby': p['aria-labelledby'],
  };
}

export const isInvalid = (p: { invalid?: boolean } & ControlAria) => !!p.invalid || p['aria-invalid'] === true || p['aria-invalid'] === 'true';
