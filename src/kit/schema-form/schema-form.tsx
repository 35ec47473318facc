import { CircleAlert } from 'lucide-react';
import { isValidElement, useMemo, type FormEvent, type ReactElement, type ReactNode } from 'react';
import { Controller, useWatch, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { isVisible, type UiMeta } from '../../../schemas/ui';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import { Field } from '../../ui/field';
import { Input } from '../../ui/input';
import { useKitT, type Namespaces } from '../i18n';
import { sectionsOf, type FieldDescriptor } from '../schema/fields';
import type { UploadedFile } from '../widgets/file-upload';
import { renderBuiltinWidget, type WidgetRenderer, type WidgetRenderProps } from './field-widget';
import { encodeMessage } from './messages';
import { splitServerErrors, submitErrorMessage } from './server-errors';
import { useSchemaForm, type ObjectSchema, type SchemaFormApi, type UseSchemaFormOptions } from './use-schema-form';
import s from './schema-form.module.css';

export interface SchemaFormProps<S extends ObjectSchema> extends UseSchemaFormOptions<S> {
  /** The zod object schema (with UI metadata, schemas/ui.ts). Not needed when `form` is given. */
  schema?: S;
  /** A form made by {@link useSchemaForm} (when the screen needs the form itself). */
  form?: SchemaFormApi<S>;
  /** i18n namespaces for the metadata's bare keys (see kit/i18n translateKey). */
  ns?: Namespaces;
  /**
   * Called with the parsed values. A rejection shows: field errors from a VALIDATION-1000 answer
   * (`data: [{path, message}]`) on their fields, anything else above the buttons. Call the API
   * with `reaction: 'silent'` so the request layer does not toast the same error.
   */
  onSubmit?: (values: z.output<S>) => unknown | Promise<unknown>;
  /** Called after a failed submit (the error is already shown). */
  onSubmitError?: (error: unknown) => void;
  /**
   * Where the form's values sit in the request body, when not at its top: `'values'` for a body
   * `{ values: {...} }`, so an issue at `body/values/api_key` shows under the field `api_key`.
   */
  serverPath?: string;
  /** Shows a Cancel button. */
  onCancel?: () => void;
  submitLabel?: ReactNode;
  cancelLabel?: ReactNode;
  /** Everything disabled (no submit). */
  disabled?: boolean;
  /** Values shown, not editable (no buttons). */
  readOnly?: boolean;
  /** Custom widgets by name (e.g. 'variables', 'model-picker'), or replacements of built-ins. */
  widgets?: Readonly<Record<string, WidgetRenderer>>;
  /** Per-field renderer; return undefined to keep the default. */
  renderWidget?: (props: WidgetRenderProps) => ReactNode | undefined;
  /** Extra props per field name for its widget (`{ sk: { onReveal } }`, `{ files: { upload } }`). */
  widgetProps?: Readonly<Record<string, Record<string, unknown>>>;
  /** Default `upload` of file widgets. */
  upload?: (file: File, opts: { signal: AbortSignal }) => Promise<UploadedFile>;
  /** 'vertical' (label above, default) or 'horizontal'. */
  layout?: 'vertical' | 'horizontal';
  labelWidth?: number;
  /** Extra buttons at the left of the footer (a "check connection" button). */
  actions?: ReactNode;
  /** No footer (a dialog renders its own buttons with `form={id}`). */
  hideFooter?: boolean;
  /** The <form> id. */
  id?: string;
  className?: string;
}

/**
 * A form rendered from a zod object schema and its UI metadata: labels, help and placeholders as
 * i18n keys, widgets picked from the metadata or the zod type, order and titled groups, conditional
 * fields, required marks, schema defaults, spec 5 messages translated at render (they follow a
 * language switch), a submit with its loading state and server field errors mapped back.
 * @example
 * <SchemaForm schema={CredentialCreateBody} ns="resources" onSubmit={(v) => createCredential(v, { reaction: 'silent' })} onCancel={close} />
 */
export function SchemaForm<S extends ObjectSchema>(props: SchemaFormProps<S>) {
  if (props.form) return <SchemaFormView {...props} api={props.form} />;
  if (!props.schema) throw new Error('SchemaForm: give `schema` or `form`');
  return <OwnForm {...props} schema={props.schema} />;
}

function OwnForm<S extends ObjectSchema>(props: SchemaFormProps<S> & { schema: S }) {
  const api = useSchemaForm(props.schema, props);
  return <SchemaFormView {...props} api={api} />;
}

type AnyForm = UseFormReturn<FieldValues, unknown, FieldValues>;

function SchemaFormView<S extends ObjectSchema>({
  api,
  ns,
  onSubmit,
  onSubmitError,
  serverPath,
  onCancel,
  submitLabel,
  cancelLabel,
  disabled = false,
  readOnly = false,
  widgets,
  renderWidget,
  widgetProps,
  upload,
  layout = 'vertical',
  labelWidth,
  actions,
  hideFooter,
  id,
  className,
}: SchemaFormProps<S> & { api: SchemaFormApi<S> }) {
  const { t, tk, tm } = useKitT(ns);
  const form = api.form as unknown as AnyForm;
  const { fields, meta } = api;
  const deps = useMemo(() => [...new Set(fields.flatMap((f) => conditionFields(f.visibleWhen)))], [fields]);
  const watched = useWatch({ control: form.control, name: deps, disabled: deps.length === 0 }) as unknown[] | undefined;
  const depValues = Object.fromEntries(deps.map((d, i) => [d, watched?.[i]]));
  const sections = useMemo(() => sectionsOf(fields, meta.groups), [fields, meta.groups]);
  const { isSubmitting, errors } = form.formState;
  const rootError = (errors.root as { server?: { message?: string } } | undefined)?.server?.message;

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit?.(values as z.output<S>);
    } catch (err) {
      const { known, rest } = splitServerErrors(
        err,
        fields.map((f) => f.name),
        serverPath,
      );
      known.forEach((e, i) => form.setError(e.name as Path<FieldValues>, { type: 'server', message: e.message }, { shouldFocus: i === 0 }));
      if (known.length === 0) form.setError('root.server', { type: 'server', message: encodeMessage(submitErrorMessage(err)) });
      else if (rest.length) form.setError('root.server', { type: 'server', message: encodeMessage(rest[0].message) });
      onSubmitError?.(err);
    }
  });

  const onFormSubmit = (e: FormEvent) => {
    form.clearErrors('root');
    if (disabled || readOnly) return e.preventDefault();
    void submit(e);
  };

  const renderField = (f: FieldDescriptor) => {
    if (f.widget === 'hidden' || !isVisible(f.visibleWhen, depValues)) return null;
    return (
      <Controller
        key={f.name}
        control={form.control}
        name={f.name}
        render={({ field, fieldState }) => {
          const p: WidgetRenderProps = {
            field: f,
            value: field.value,
            onChange: field.onChange,
            onBlur: field.onBlur,
            disabled: disabled || f.disabled || isSubmitting,
            readOnly: readOnly || f.readOnly,
            invalid: !!fieldState.error,
            placeholder: f.placeholder ? tk(f.placeholder) : undefined,
            tk,
            extra: { ...(f.widget === 'file' && upload ? { upload } : null), ...widgetProps?.[f.name] },
            form,
          };
          const custom = renderWidget?.(p) ?? widgets?.[f.widget]?.(p);
          const node = custom ?? renderBuiltinWidget(p) ?? <Input value={stringValue(field.value)} disabled readOnly />;
          return (
            <Field
              data-field={f.name}
              data-widget={f.widget}
              label={f.label ? tk(f.label) : f.name}
              help={f.help ? tk(f.help) : undefined}
              error={fieldState.error ? tm(fieldState.error.message) : undefined}
              required={f.required && !readOnly}
              layout={layout}
              labelWidth={labelWidth}
              className={s.field}
            >
              {asElement(node)}
            </Field>
          );
        }}
      />
    );
  };

  return (
    <form id={id} data-slot="schema-form" className={cn(s.form, className)} onSubmit={onFormSubmit} noValidate aria-busy={isSubmitting || undefined}>
      {sections.map((sec) => {
        const body = sec.fields.map(renderField).filter(Boolean);
        if (body.length === 0) return null;
        return sec.title ? (
          <section key={sec.id} className={s.section} aria-label={tk(sec.title)}>
            <header className={s.sectionHeader}>
              <h3 className={s.sectionTitle}>{tk(sec.title)}</h3>
              {sec.help && <p className={s.sectionHelp}>{tk(sec.help)}</p>}
            </header>
            <div className={s.fields}>{body}</div>
          </section>
        ) : (
          <div key="_" className={s.fields}>
            {body}
          </div>
        );
      })}
      {rootError && (
        <div className={s.rootError} role="alert" data-slot="form-error">
          <CircleAlert aria-hidden="true" />
          <span>{tm(rootError)}</span>
        </div>
      )}
      {!hideFooter && !readOnly && (
        <div className={s.footer}>
          {actions && <div className={s.actions}>{actions}</div>}
          {onCancel && (
            <Button onClick={onCancel} disabled={isSubmitting}>
              {cancelLabel ?? t('form.cancel')}
            </Button>
          )}
          <Button type="submit" variant="primary" loading={isSubmitting} disabled={disabled}>
            {isSubmitting ? t('form.saving') : (submitLabel ?? t('form.save'))}
          </Button>
        </div>
      )}
    </form>
  );
}

function conditionFields(when: UiMeta['visibleWhen']): string[] {
  if (!when) return [];
  return (Array.isArray(when) ? when : [when]).map((c: { field: string }) => c.field);
}

const stringValue = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** <Field> needs one element to give its id and aria props to. */
function asElement(node: ReactNode): ReactElement {
  return isValidElement(node) ? node : <div>{node}</div>;
}
