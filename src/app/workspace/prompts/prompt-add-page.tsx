/**
 * /operation/workspace/:workspace_id/prompt-add/:promptId?: add a prompt, or edit one (spec 2, 3,
 * 5, 9): name, description, tags (5 of 20 characters), template type (jinja2 or f-string), scene,
 * content, and the variables the server parses from the content; beside the form, the debug panel
 * (prompt-debug-panel.tsx) runs what is being edited: values, model, streamed answer, optimization
 * and test questions.
 */
import { ArrowLeft } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PromptCreateBody, PromptUpdateBody, type Prompt, type PromptModel, type PromptVariable, type TemplateType } from '../../../../schemas/prompt';
import { registerMessageKeys, SchemaForm, useSchemaForm, type ObjectSchema } from '../../../kit/schema-form';
import { Button } from '../../../ui/button';
import { EmptyState } from '../../../ui/empty-state';
import { Skeleton } from '../../../ui/skeleton';
import { toast } from '../../../ui/toast';
import { Page, PageHeader } from '../../shell/page';
import { PublishToStore } from '../../store/publish-to-store';
import { reportError } from '../members/report-error';
import { usePromptApi } from './prompt-api';
import { PromptDebugPanel } from './prompt-debug-panel';
import { VariablesWidget } from './variables-widget';
import s from './prompts-page.module.css';
import { useCrumbName } from '../../shell/route-handle';

/**
 * The edit form: the update body leaves fields out to keep them, but the form always sends them all,
 * so it marks required and offers no clear button where the new form does not (issue 28).
 */
const PromptEditForm = PromptUpdateBody.extend({
  name: PromptCreateBody.shape.name,
  content: PromptCreateBody.shape.content,
  template_type: PromptCreateBody.shape.template_type,
  scene: PromptCreateBody.shape.scene,
});

registerMessageKeys({
  'Variable names start with a letter or underscore and hold letters, digits and underscores': 'prompt:messages.variableName',
  'Variable names must be unique': 'prompt:messages.variablesUnique',
  'Tags must be different': 'prompt:messages.tagsUnique',
  'At most 5 tags': 'prompt:messages.maxTags',
});

const widgets = { variables: VariablesWidget };
// The model is picked in the debug panel (the saved one is its first choice).
const EXCLUDE = ['model'];

interface EditorProps {
  schema: ObjectSchema;
  defaultValues: Record<string, unknown>;
  workspaceId: string;
  promptId?: string;
  model?: PromptModel | null;
  widgetProps: Record<string, Record<string, unknown>>;
  onCancel(): void;
  onSubmit(values: Record<string, unknown>): Promise<void>;
}

/** The form and, beside it, the debug panel reading the form's current content and variables. */
function PromptEditor({ schema, defaultValues, workspaceId, promptId, model, widgetProps, onCancel, onSubmit }: EditorProps) {
  const api = useSchemaForm(schema, { defaultValues, exclude: EXCLUDE });
  const form = api.form as unknown as UseFormReturn<Record<string, unknown>>;
  const [content, templateType, variables] = useWatch({ control: form.control, name: ['content', 'template_type', 'variables'] }) as [
    string | undefined,
    TemplateType | undefined,
    PromptVariable[] | undefined,
  ];
  return (
    <div className={s.editorLayout}>
      <div className={s.editor}>
        <SchemaForm form={api} ns="prompt" widgets={widgets} widgetProps={widgetProps} onCancel={onCancel} onSubmit={(v) => onSubmit(v as Record<string, unknown>)} />
      </div>
      <PromptDebugPanel
        workspaceId={workspaceId}
        promptId={promptId}
        content={content ?? ''}
        templateType={templateType ?? 'f-string'}
        variables={variables ?? []}
        model={model}
        onAcceptContent={(c) => form.setValue('content', c, { shouldDirty: true })}
      />
    </div>
  );
}

export interface PromptAddPageProps {
  workspaceId?: string;
  promptId?: string;
}

export default function PromptAddPage({ workspaceId: givenWs, promptId: givenId }: PromptAddPageProps) {
  const { t } = useTranslation(['prompt', 'common']);
  const api = usePromptApi();
  const params = useParams();
  const navigate = useNavigate();
  const workspaceId = givenWs ?? params.workspace_id ?? '';
  const promptId = givenId ?? params.promptId;
  const [prompt, setPrompt] = useState<Prompt | null>(null);
  useCrumbName('prompt', prompt && { label: prompt.name });
  const [status, setStatus] = useState<'loading' | 'ready' | 'missing'>(promptId ? 'loading' : 'ready');
  const listPath = `/operation/workspace/${encodeURIComponent(workspaceId)}/prompt`;

  useEffect(() => {
    if (!promptId) return;
    let live = true;
    setStatus('loading');
    api.get(workspaceId, promptId).then(
      (p) => {
        if (!live) return;
        setPrompt(p);
        setStatus('ready');
      },
      (e: unknown) => {
        if (!live) return;
        setStatus('missing');
        reportError(e);
      },
    );
    return () => {
      live = false;
    };
  }, [api, workspaceId, promptId]);

  const widgetProps = useMemo(() => ({ variables: { parse: (type: 'jinja2' | 'f-string', content: string) => api.parseVariables(workspaceId, type, content) } }), [api, workspaceId]);

  const back = (
    <Button icon={<ArrowLeft aria-hidden="true" />} onClick={() => navigate(listPath)}>
      {t('editor.back')}
    </Button>
  );

  const onSaved = (text: string) => {
    toast.success(text);
    navigate(listPath);
  };

  return (
    <Page data-testid="prompt-add-page">
      <PageHeader title={promptId ? t('editor.edit') : t('editor.create')} description={t('page.description')} actions={
          <>
            {/* A saved prompt can be shared through the tenant's prompt store. */}
            {prompt && <PublishToStore workspaceId={workspaceId} type="prompt" sourceId={prompt.id} name={prompt.name} description={prompt.description} tags={prompt.tags} />}
            {back}
          </>
        }
      />
      {status === 'loading' ? (
        <div className={s.editor} aria-busy="true">
          <Skeleton height={32} />
          <Skeleton height={120} />
        </div>
      ) : status === 'missing' ? (
        <EmptyState title={t('editor.notFound')} action={back} />
      ) : prompt ? (
        <PromptEditor
          schema={PromptEditForm as ObjectSchema}
          workspaceId={workspaceId}
          promptId={prompt.id}
          model={prompt.model}
          widgetProps={widgetProps}
          defaultValues={{
            id: prompt.id,
            name: prompt.name,
            description: prompt.description,
            tags: prompt.tags,
            template_type: prompt.template_type,
            scene: prompt.scene,
            content: prompt.content,
            variables: prompt.variables,
          }}
          onCancel={() => navigate(listPath)}
          onSubmit={async (v) => {
            await api.update(workspaceId, v as never);
            onSaved(t('done.updated'));
          }}
        />
      ) : (
        <PromptEditor
          schema={PromptCreateBody as ObjectSchema}
          workspaceId={workspaceId}
          widgetProps={widgetProps}
          defaultValues={{ variables: [] }}
          onCancel={() => navigate(listPath)}
          onSubmit={async (v) => {
            await api.create(workspaceId, v as never);
            onSaved(t('done.created'));
          }}
        />
      )}
    </Page>
  );
}
