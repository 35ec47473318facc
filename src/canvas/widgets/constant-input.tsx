import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultValueFor, isArrayType, type ValueType } from '../../../schemas/flow';
import { NumberInput } from '../../kit/widgets/number-input';
import { Input } from '../../ui/input';
import { Switch } from '../../ui/switch';
import { Textarea } from '../../ui/textarea';

export interface ConstantInputProps {
  type: ValueType;
  value: unknown;
  onChange(value: unknown): void;
  readOnly?: boolean;
  'aria-label': string;
  className?: string;
}

/**
 * Parses the JSON typed for an object or array constant; undefined while it is not valid JSON of
 * the right shape (the text is kept and marked invalid until it is).
 * @example parseConstant('[1,2]', 'array[number]') // [1, 2]
 */
export function parseConstant(text: string, type: ValueType): unknown {
  try {
    const v: unknown = JSON.parse(text);
    if (isArrayType(type)) return Array.isArray(v) ? v : undefined;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** A constant of a value type: text, number, switch, or JSON for objects and arrays. */
export function ConstantInput({ type, value, onChange, readOnly, className, ...aria }: ConstantInputProps) {
  const { t } = useTranslation('inspector');
  const structured = type === 'object' || isArrayType(type) || type === 'file';
  const [text, setText] = useState(() => (structured ? JSON.stringify(value ?? defaultValueFor(type)) : ''));
  const [bad, setBad] = useState(false);
  useEffect(() => {
    if (!structured) return;
    // Follow outside changes (undo) unless the text already means that value.
    setText((cur) => (JSON.stringify(parseConstant(cur, type)) === JSON.stringify(value) ? cur : JSON.stringify(value ?? defaultValueFor(type))));
  }, [value, type, structured]);
  if (type === 'number') {
    return <NumberInput className={className} aria-label={aria['aria-label']} value={typeof value === 'number' ? value : undefined} readOnly={readOnly} onChange={(v) => onChange(v ?? 0)} />;
  }
  if (type === 'boolean') return <Switch aria-label={aria['aria-label']} checked={value === true} disabled={readOnly} onCheckedChange={(v) => onChange(v)} />;
  if (!structured) {
    return <Input size="sm" className={className} aria-label={aria['aria-label']} value={typeof value === 'string' ? value : ''} readOnly={readOnly} onChange={(e) => onChange(e.target.value)} />;
  }
  return (
    <Textarea
      className={className}
      rows={2}
      aria-label={aria['aria-label']}
      value={text}
      readOnly={readOnly}
      invalid={bad}
      title={bad ? t('rows.jsonInvalid') : undefined}
      onChange={(e) => {
        setText(e.target.value);
        const v = parseConstant(e.target.value, type);
        setBad(v === undefined);
        if (v !== undefined) onChange(v);
      }}
    />
  );
}
