/**
 * The start form of a chat app with inputs, asked once when a conversation starts (loaded with the
 * first app that has inputs: the schema-driven form is not in the chat's own chunk).
 */
import { ClipboardList } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { PortalInputField } from '../../../../schemas/portal';
import { SchemaForm } from '../../../kit/schema-form';
import { inputSchemaOf, toRunInputs } from '../input-schema';
import type { PortalApi } from '../portal-api';
import s from './chat.module.css';

export interface StartInputsProps {
  fields: readonly PortalInputField[];
  upload: PortalApi['upload'];
  onStart: (inputs: Record<string, unknown>) => void;
}

export default function StartInputs({ fields, upload, onStart }: StartInputsProps) {
  const { t } = useTranslation('portal');
  const schema = useMemo(() => inputSchemaOf(fields), [fields]);
  return (
    <section className={s.inputsCard} aria-labelledby="chat-inputs-title" data-testid="chat-start-inputs">
      <header className={s.inputsHead}>
        <ClipboardList aria-hidden="true" />
        <div>
          <h2 id="chat-inputs-title" className={s.inputsTitle}>
            {t('chat.inputs.title')}
          </h2>
          <p className={s.inputsHint}>{t('chat.inputs.description')}</p>
        </div>
      </header>
      <SchemaForm schema={schema} upload={upload} submitLabel={t('chat.inputs.start')} onSubmit={(values) => onStart(toRunInputs(fields, values as Record<string, unknown>))} />
    </section>
  );
}
