import { useTranslation } from 'react-i18next';
import { CharacterCreateBody, type Character } from '../../../../schemas/digital-human';
import { createCharacter, updateCharacter } from '../../../api/digital-humans';
import { SchemaForm } from '../../../kit/schema-form';
import { Dialog, DialogBody, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../ui/dialog';
import { toast } from '../../../ui/toast';
import { characterWidgets } from './character-widgets';

/** The form: the create body's fields (the edit sends them all, with the id). */
const CharacterForm = CharacterCreateBody.omit({ id: true });

export interface CharacterDialogProps {
  workspaceId: string;
  /** null: closed; 'new': create; a character: edit it. */
  target: Character | 'new' | null;
  onClose: () => void;
  onSaved: (c: Character) => void;
}

/** Create or edit a character with the server's own body schema (schemas/digital-human.ts) and its widgets. */
export function CharacterDialog({ workspaceId, target, onClose, onSaved }: CharacterDialogProps) {
  const { t } = useTranslation(['digitalHuman', 'common']);
  const editing = target !== null && target !== 'new' ? target : null;
  return (
    <Dialog open={target !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent size="md" closeLabel={t('common:actions.close')} data-testid="character-dialog">
        <DialogHeader>
          <DialogTitle>{editing ? t('page.editTitle') : t('page.create')}</DialogTitle>
          <DialogDescription>{t('page.description')}</DialogDescription>
        </DialogHeader>
        <DialogBody>
          <SchemaForm
            key={editing?.id ?? 'new'}
            schema={CharacterForm}
            ns="digitalHuman"
            widgets={characterWidgets}
            defaultValues={
              editing
                ? {
                    name: editing.name,
                    portrait_file_id: editing.portrait?.file_id ?? null,
                    idle_clip_file_id: editing.idle_clip?.file_id ?? null,
                    voice: editing.voice,
                    persona: editing.persona,
                    greeting: editing.greeting,
                  }
                : undefined
            }
            submitLabel={editing ? t('common:actions.save') : t('common:actions.create')}
            onCancel={onClose}
            onSubmit={async (v) => {
              const saved = editing
                ? await updateCharacter({ id: editing.id, ...v }, { workspaceId, reaction: 'silent' })
                : await createCharacter(v, { workspaceId, reaction: 'silent' });
              toast.success(editing ? t('page.saved') : t('page.created'));
              onSaved(saved);
            }}
          />
        </DialogBody>
      </DialogContent>
    </Dialog>
  );
}
