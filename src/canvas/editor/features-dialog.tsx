import { useTranslation } from 'react-i18next';
import { AppFeatures, FEATURE_COUNT_MESSAGE, featuresOf } from '../../../schemas/flow';
import { registerMessageKeys, SchemaForm } from '../../kit/schema-form';
import { Button, Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, toast } from '../../ui';
import { useFlowStoreApi } from '../react/use-flow-store-api';
import type { FlowStore } from '../store/create-flow-store';
import { FEATURE_WIDGETS } from './features-widgets';
import s from './features.module.css';

/** Number boxes need no full width (a count of at most 20, of at most 10 files). */
const WIDGET_PROPS = { suggested_questions_random_count: { className: s.narrow } };

// The schema's own sentence (the server says the same words) shown in the user's language.
registerMessageKeys({ [FEATURE_COUNT_MESSAGE]: 'features:errors.countAboveQuestions' });

/**
 * Writes the app's features into the flow document as one undo step (autosaved like any edit);
 * false when they did not change. JSON only: the parsed form values, nothing of the view.
 * @example saveFeatures(store, { ...featuresOf(store.toDocument()), opening_statement: 'Hi!' });
 */
export function saveFeatures(store: FlowStore, features: AppFeatures): boolean {
  const next = AppFeatures.parse(features);
  if (JSON.stringify(featuresOf(store.getState().document)) === JSON.stringify(next)) return false;
  return store.edit((d) => {
    d.features = next;
  });
}

export interface FeaturesDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
}

/**
 * The app's features (chat apps): opening statement, suggested questions and how many are shown,
 * follow-up suggestions, citations, feedback and file upload. The form is drawn by the kit from
 * AppFeatures' metadata; saving writes the flow document's `features` through the editor's store.
 */
export function FeaturesDialog({ open, onOpenChange }: FeaturesDialogProps) {
  const { t } = useTranslation('features');
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="lg" data-testid="features-dialog" closeLabel={t('close')}>
        <DialogHeader>
          <DialogTitle>{t('title')}</DialogTitle>
          <DialogDescription>{t('hint')}</DialogDescription>
        </DialogHeader>
        {open && <FeaturesForm onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function FeaturesForm({ onDone }: { onDone(): void }) {
  const { t } = useTranslation('features');
  const store = useFlowStoreApi();
  const readOnly = store.getState().readOnly;
  const initial = featuresOf(store.getState().document);
  return (
    <>
      <DialogBody>
        <SchemaForm
          id="features-form"
          schema={AppFeatures}
          ns="features"
          defaultValues={initial}
          widgets={FEATURE_WIDGETS}
          widgetProps={WIDGET_PROPS}
          layout="horizontal"
          labelWidth={180}
          readOnly={readOnly}
          hideFooter
          onSubmit={(values) => {
            if (saveFeatures(store, values)) toast.success(t('saved'));
            onDone();
          }}
        />
      </DialogBody>
      <DialogFooter>
        <Button variant="secondary" onClick={onDone}>
          {readOnly ? t('close') : t('cancel')}
        </Button>
        {!readOnly && (
          <Button variant="primary" type="submit" form="features-form" data-testid="features-save">
            {t('save')}
          </Button>
        )}
      </DialogFooter>
    </>
  );
}
