import { useTranslation } from 'react-i18next';
import { CredentialCreateBody, CredentialUpdateBody, type Credential } from '../../../../schemas/credential';
import { SchemaForm } from '../../../kit/schema-form';
import { Dialog, DialogBody, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../ui/dialog';
import { toast } from '../../../ui/toast';
import { useCredentialApi } from './credential-api';

/**
 * The edit form: the update body leaves fields out to keep them, but the form always sends them all,
 * so it marks the same fields required as the new form does (issue 28).
 */
const CredentialEditForm = CredentialUpdateBody.extend({ identifier: CredentialCreateBody.shape.identifier, sk: CredentialCreateBody.shape.sk });

export interface CredentialDialogProps {
  workspaceId: string;
  /** null: closed; 'new': create; a row: edit it. */
  target: Credential | 'new' | null;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * Create or edit a credential with the server's own body schemas. When editing, the SK field holds
 * the mask; revealing it fetches the plain SK (owner and admin), and a mask sent back keeps it.
 */
export function CredentialDialog({ workspaceId, target, onClose, onSaved }: CredentialDialogProps) {
  const { t } = useTranslation(['credential', 'common']);
  const api = useCredentialApi();
  const editing = target !== null && target !== 'new' ? target : null;
  return (
    <Dialog open={target !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent size="md" closeLabel={t('common:actions.close')} data-testid="credential-dialog">
        <DialogHeader>
          <DialogTitle>{editing ? t('dialog.edit') : t('dialog.create')}</DialogTitle>
          <DialogDescription>{t('page.description')}</DialogDescription>
        </DialogHeader>
        <DialogBody>
          {editing ? (
            <SchemaForm
              key={editing.id}
              schema={CredentialEditForm}
              ns="credential"
              defaultValues={{ id: editing.id, identifier: editing.identifier, ak: editing.ak, sk: editing.sk, cred_id: editing.cred_id, description: editing.description }}
              widgetProps={{ sk: { onReveal: () => api.secret(workspaceId, editing.id) } }}
              onCancel={onClose}
              onSubmit={async (v) => {
                await api.update(workspaceId, v);
                toast.success(t('done.updated'));
                onSaved();
              }}
            />
          ) : (
            <SchemaForm
              schema={CredentialCreateBody}
              ns="credential"
              onCancel={onClose}
              onSubmit={async (v) => {
                await api.create(workspaceId, v);
                toast.success(t('done.created'));
                onSaved();
              }}
            />
          )}
        </DialogBody>
      </DialogContent>
    </Dialog>
  );
}
