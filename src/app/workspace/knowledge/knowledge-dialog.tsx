import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATASET_DESCRIPTION_MAX, DATASET_NAME_MAX, MAX_GRAPH_MIN_RELEVANCE, type Dataset } from '../../../api/datasets-contract';
import { describeError } from '../../../api/reactions';
import { Button, Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, Field, Input, Textarea, toast } from '../../../ui';
import { useKnowledgeApi } from './knowledge-api';
import s from './knowledge.module.css';

export interface KnowledgeDialogProps {
  workspaceId: string;
  /** null: closed; 'new': create; a base: edit it. */
  target: Dataset | 'new' | null;
  onClose: () => void;
  onSaved: (d: Dataset) => void;
}

/**
 * Create or edit a knowledge base: name (required, unique in the project space — asked of
 * check-names before saving) and description; when editing, the graph minimum relevance its hit
 * tests use. Errors show on their field or under the form.
 */
export function KnowledgeDialog({ workspaceId, target, onClose, onSaved }: KnowledgeDialogProps) {
  const { t } = useTranslation(['knowledge', 'common', 'kit']);
  const api = useKnowledgeApi();
  const editing = target !== null && target !== 'new' ? target : null;
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  /** Kept as typed; checked on save (0…MAX_GRAPH_MIN_RELEVANCE). */
  const [minRelevance, setMinRelevance] = useState('');
  const [relevanceError, setRelevanceError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (target === null) return;
    setName(editing?.name ?? '');
    setDescription(editing?.description ?? '');
    setMinRelevance(editing ? String(editing.graph_min_relevance) : '');
    setRelevanceError(null);
    setNameError(null);
    setFailure(null);
  }, [target, editing]);

  const submit = async () => {
    const n = name.trim();
    if (!n) return setNameError(t('kit:validation.required'));
    if (n.length > DATASET_NAME_MAX) return setNameError(t('kit:validation.maxLength', { max: DATASET_NAME_MAX }));
    const relevance = Number(minRelevance);
    if (editing && (minRelevance.trim() === '' || !Number.isFinite(relevance) || relevance < 0 || relevance > MAX_GRAPH_MIN_RELEVANCE)) {
      return setRelevanceError(t('dialog.graphMinRelevanceHelp', { max: MAX_GRAPH_MIN_RELEVANCE }));
    }
    setSaving(true);
    setFailure(null);
    try {
      if (n !== editing?.name && (await api.checkName(workspaceId, n, editing?.id))) {
        setNameError(t('dialog.nameTaken'));
        return;
      }
      const saved = editing
        ? await api.updateDataset(workspaceId, editing.id, { name: n, description: description.trim(), graph_min_relevance: relevance })
        : await api.createDataset(workspaceId, { name: n, description: description.trim() });
      toast.success(editing ? t('dialog.updated') : t('dialog.created'));
      onSaved(saved);
    } catch (e) {
      setFailure(describeError(e, 'silent')?.text ?? t('dialog.saveFailed'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={target !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent size="md" closeLabel={t('common:actions.close')} data-testid="kb-dialog">
        <DialogHeader>
          <DialogTitle>{editing ? t('dialog.edit') : t('dialog.create')}</DialogTitle>
          <DialogDescription>{t('dialog.description')}</DialogDescription>
        </DialogHeader>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DialogBody className={s.stack}>
            <Field label={t('dialog.name')} required error={nameError} help={`${name.length}/${DATASET_NAME_MAX}`}>
              <Input
                value={name}
                maxLength={DATASET_NAME_MAX}
                placeholder={t('dialog.namePlaceholder')}
                data-testid="kb-name"
                onChange={(e) => {
                  setName(e.target.value);
                  setNameError(null);
                }}
              />
            </Field>
            <Field label={t('dialog.descriptionLabel')} help={`${description.length}/${DATASET_DESCRIPTION_MAX}`}>
              <Textarea
                value={description}
                rows={4}
                maxLength={DATASET_DESCRIPTION_MAX}
                placeholder={t('dialog.descriptionPlaceholder')}
                data-testid="kb-description"
                onChange={(e) => setDescription(e.target.value)}
              />
            </Field>
            {editing && (
              <Field label={t('dialog.graphMinRelevance')} error={relevanceError} help={t('dialog.graphMinRelevanceHelp', { max: MAX_GRAPH_MIN_RELEVANCE })}>
                <Input
                  type="number"
                  // Checked on save with its own message (the browser's range check would block it silently).
                  step="any"
                  value={minRelevance}
                  data-testid="kb-graph-min-relevance"
                  onChange={(e) => {
                    setMinRelevance(e.target.value);
                    setRelevanceError(null);
                  }}
                />
              </Field>
            )}
            {failure && (
              <p role="alert" className={s.errorText}>
                {failure}
              </p>
            )}
          </DialogBody>
          <DialogFooter>
            <Button type="button" variant="secondary" onClick={onClose}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" variant="primary" loading={saving} data-testid="kb-save">
              {t('common:actions.save')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
