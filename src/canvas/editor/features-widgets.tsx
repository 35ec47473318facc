/**
 * The two custom widgets of the features form (schemas/flow.ts AppFeatures, `widget` metadata):
 * the suggested questions as a list of rows, and the file-upload settings, a nested object whose
 * own fields are drawn from its schema's metadata by the kit's built-in widgets.
 */
import { Plus, Trash2 } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FEATURE_LIMITS, FileUploadFeature } from '../../../schemas/flow';
import { isVisible } from '../../../schemas/ui';
import { useKitT } from '../../kit/i18n';
import { describeObject } from '../../kit/schema/fields';
import { renderBuiltinWidget, type WidgetRenderer, type WidgetRenderProps } from '../../kit/schema-form';
import { Button } from '../../ui/button';
import { Field } from '../../ui/field';
import { Input } from '../../ui/input';
import s from './features.module.css';

/** The field whose rule depends on the questions (schemas/flow.ts AppFeatures' refinement). */
const COUNT_FIELD = 'suggested_questions_random_count';

type ErrorTree = { message?: string } & Record<string | number, unknown>;

/** The form's error at `path` under a field (react-hook-form keeps nested errors as a tree). */
function errorAt(p: WidgetRenderProps, ...path: (string | number)[]): string | undefined {
  let at: unknown = p.form.formState.errors[p.field.name];
  for (const k of path) at = at && typeof at === 'object' ? (at as ErrorTree)[k] : undefined;
  return at && typeof at === 'object' ? (at as ErrorTree).message : undefined;
}

function QuestionList(p: WidgetRenderProps) {
  const { t } = useTranslation('features');
  const { tm } = useKitT('features');
  const questions = Array.isArray(p.value) ? (p.value as string[]) : [];
  const locked = p.disabled || p.readOnly;
  const set = (next: string[]) => {
    p.onChange(next);
    // The shown count is checked against the number of questions: check it again as they change.
    if (p.form.getFieldState(COUNT_FIELD).error) void p.form.trigger(COUNT_FIELD);
  };
  return (
    <div className={s.questionList} data-testid="features-questions">
      {questions.length === 0 && <p className={s.hint}>{t('questions.empty')}</p>}
      {questions.map((q, i) => {
        const error = errorAt(p, i);
        return (
          <div key={i} className={s.questionRow}>
            <Input
              value={q}
              maxLength={FEATURE_LIMITS.suggestedQuestionMax}
              placeholder={t('placeholders.question')}
              aria-label={`${t('fields.suggestedQuestions')} ${i + 1}`}
              invalid={!!error}
              readOnly={p.readOnly}
              disabled={p.disabled}
              onChange={(e) => set(questions.map((x, j) => (j === i ? e.target.value : x)))}
              onBlur={p.onBlur}
              data-testid="features-question"
            />
            {!locked && (
              <Button variant="ghost" size="sm" iconOnly aria-label={t('questions.remove', { n: i + 1 })} onClick={() => set(questions.filter((_, j) => j !== i))}>
                <Trash2 aria-hidden="true" />
              </Button>
            )}
            {error && <p className={s.error}>{tm(error)}</p>}
          </div>
        );
      })}
      {!locked && (
        <div className={s.questionFooter}>
          <Button
            variant="secondary"
            size="sm"
            icon={<Plus aria-hidden="true" />}
            disabled={questions.length >= FEATURE_LIMITS.suggestedQuestionsMax}
            onClick={() => set([...questions, ''])}
            data-testid="features-question-add"
          >
            {t('questions.add')}
          </Button>
          <span className={s.hint}>{t('questions.count', { count: questions.length, max: FEATURE_LIMITS.suggestedQuestionsMax })}</span>
        </div>
      )}
    </div>
  );
}

function FileUploadFields(p: WidgetRenderProps) {
  const { tk, tm } = useKitT('features');
  const fields = useMemo(() => describeObject(FileUploadFeature), []);
  const value = (p.value && typeof p.value === 'object' ? p.value : {}) as Record<string, unknown>;
  return (
    <div className={s.subForm} data-testid="features-file-upload">
      {fields
        .filter((f) => isVisible(f.visibleWhen, value))
        .map((f) => {
          const error = errorAt(p, f.name);
          const widget = renderBuiltinWidget({
            ...p,
            field: f,
            value: value[f.name],
            onChange: (v) => p.onChange({ ...value, [f.name]: v }),
            invalid: !!error,
            placeholder: f.placeholder ? tk(f.placeholder) : undefined,
            extra: f.widget === 'number' ? { className: s.narrow } : {},
          });
          return (
            <Field
              key={f.name}
              data-field={`${p.field.name}.${f.name}`}
              label={f.label ? tk(f.label) : f.name}
              help={f.help ? tk(f.help) : undefined}
              error={error ? tm(error) : undefined}
              layout="horizontal"
              labelWidth={120}
            >
              {widget ?? <span />}
            </Field>
          );
        })}
    </div>
  );
}

/** The features form's custom widgets, by the names its metadata gives. */
export const FEATURE_WIDGETS: Readonly<Record<string, WidgetRenderer>> = {
  'question-list': (p) => <QuestionList {...p} />,
  'feature-file-upload': (p) => <FileUploadFields {...p} />,
};
