import { FileUp } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Tool } from '../../../../schemas/tool';
import { isApiError } from '../../../api/request';
import { Button } from '../../../ui/button';
import { Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../ui/dialog';
import { Field } from '../../../ui/field';
import { Input } from '../../../ui/input';
import { Select } from '../../../ui/select';
import { Textarea } from '../../../ui/textarea';
import { toast } from '../../../ui/toast';
import { useToolApi, type WorkflowAppChoice } from './tool-api';
import s from './tools.module.css';

export type CreateMode = 'custom' | 'openapi' | 'mcp' | 'workflow';

export interface CreateToolDialogProps {
  workspaceId: string;
  mode: CreateMode | null;
  onClose: () => void;
  onCreated: (tool: Tool) => void;
}

const MCP_SAMPLE = `{
  "mcpServers": {
    "filesystem": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "/data"],
      "env": {}
    }
  }
}`;

/** The server's message (its field issues when there are some), for a form's error line. */
function messageOf(e: unknown, fallback: string): string {
  if (isApiError(e)) {
    const issues = Array.isArray(e.data) ? (e.data as { path?: string; message?: string }[]) : [];
    return issues.length ? issues.map((i) => `${i.path ?? ''} ${i.message ?? ''}`.trim()).join('; ') : e.msg || fallback;
  }
  return e instanceof Error ? e.message : fallback;
}

/**
 * The four ways to make a tool (spec "tools"): a custom tool by hand, an OpenAPI / Swagger import
 * (pasted or from a file), an MCP server by its config JSON, or a workflow app offered as a tool.
 */
export function CreateToolDialog({ workspaceId, mode, onClose, onCreated }: CreateToolDialogProps) {
  const { t } = useTranslation(['tools', 'common']);
  const api = useToolApi();
  const [name, setName] = useState('');
  const [intro, setIntro] = useState('');
  const [text, setText] = useState('');
  const [appId, setAppId] = useState('');
  const [apps, setApps] = useState<WorkflowAppChoice[] | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const file = useRef<HTMLInputElement>(null);
  // The reset below must run when the dialog opens in a mode, not when `t` changes (a namespace that
  // finishes loading gives a new `t`, and resetting then wiped what the user had started typing).
  const tRef = useRef(t);
  tRef.current = t;

  useEffect(() => {
    setName('');
    setIntro('');
    setText(mode === 'mcp' ? MCP_SAMPLE : '');
    setAppId('');
    setError('');
    setSubmitted(false);
    if (mode === 'workflow') api.workflowApps(workspaceId).then(setApps, (e: unknown) => setError(messageOf(e, tRef.current('loadFailed'))));
  }, [mode, api, workspaceId]);

  const required = t('required');
  const missing = {
    name: mode === 'custom' && !name.trim(),
    text: (mode === 'openapi' || mode === 'mcp') && !text.trim(),
    app: mode === 'workflow' && !appId,
  };

  // A new document makes the old error about the previous one stale (issue 28): it goes with it.
  const changeText = (value: string) => {
    setText(value);
    setError('');
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSubmitted(true);
    setError('');
    if (missing.name || missing.text || missing.app) return;
    setBusy(true);
    try {
      let tool: Tool;
      if (mode === 'custom') tool = await api.create(workspaceId, { name: name.trim(), intro: intro.trim() });
      else if (mode === 'openapi') tool = await api.importOpenApi(workspaceId, { document: text, ...(name.trim() ? { name: name.trim() } : {}) });
      else if (mode === 'mcp') {
        let config: unknown;
        try {
          config = JSON.parse(text);
        } catch {
          setError(t('create.mcpInvalid'));
          return;
        }
        tool = await api.createMcp(workspaceId, { config: config as never, intro: intro.trim() });
      } else tool = await api.createWorkflow(workspaceId, { app_id: appId, ...(name.trim() ? { name: name.trim() } : {}) });
      toast.success(t('create.done'));
      onCreated(tool);
    } catch (err) {
      setError(messageOf(err, t('loadFailed')));
    } finally {
      setBusy(false);
    }
  }

  const titles: Record<CreateMode, [string, string]> = {
    custom: [t('create.customTitle'), t('page.description')],
    openapi: [t('create.openapiTitle'), t('create.openapiHelp')],
    mcp: [t('create.mcpTitle'), t('create.mcpHelp')],
    workflow: [t('create.workflowTitle'), t('create.workflowHelp')],
  };
  const [title, description] = mode ? titles[mode] : ['', ''];
  let body: ReactNode = null;
  if (mode === 'custom') {
    body = (
      <>
        <Field label={t('fields.name')} required error={submitted && missing.name ? required : undefined}>
          <Input value={name} maxLength={50} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label={t('fields.intro')}>
          <Textarea value={intro} maxLength={500} onChange={(e) => setIntro(e.target.value)} />
        </Field>
      </>
    );
  } else if (mode === 'openapi') {
    body = (
      <>
        <Field label={t('create.nameOptional')}>
          <Input value={name} maxLength={50} onChange={(e) => setName(e.target.value)} />
        </Field>
        <div className={s.fileRow}>
          <input
            ref={file}
            type="file"
            accept=".json,.yaml,.yml,application/json,text/yaml"
            hidden
            data-testid="openapi-file"
            onChange={async (e) => {
              const f = e.target.files?.[0];
              if (f) changeText(await f.text());
            }}
          />
          <Button type="button" size="sm" variant="secondary" icon={<FileUp aria-hidden="true" />} onClick={() => file.current?.click()}>
            {t('create.openapiFile')}
          </Button>
        </div>
        <Field label={t('create.openapiDocument')} required error={submitted && missing.text ? required : undefined}>
          <Textarea className={s.code} rows={14} value={text} onChange={(e) => changeText(e.target.value)} spellCheck={false} />
        </Field>
      </>
    );
  } else if (mode === 'mcp') {
    body = (
      <>
        <Field label="JSON" required error={submitted && missing.text ? required : undefined}>
          <Textarea className={s.code} rows={12} value={text} onChange={(e) => changeText(e.target.value)} spellCheck={false} aria-label={t('create.mcpTitle')} />
        </Field>
        <Field label={t('fields.intro')}>
          <Input value={intro} maxLength={500} onChange={(e) => setIntro(e.target.value)} />
        </Field>
      </>
    );
  } else if (mode === 'workflow') {
    body = (
      <>
        <Field label={t('create.workflowApp')} required error={submitted && missing.app ? required : undefined} help={apps && apps.length === 0 ? t('create.noWorkflowApps') : apps && !apps.some((a) => a.version) ? t('create.noPublishedWorkflowApps') : undefined}>
          <Select
            value={appId || undefined}
            onValueChange={setAppId}
            // A tool runs the app's newest published version: apps never published are shown, not pickable.
            options={(apps ?? []).map((a) => ({ value: a.id, label: a.version ? `${a.name} · ${a.version}` : `${a.name} (${t('create.notPublished')})`, disabled: !a.version }))} placeholder={t('create.workflowApp')} aria-label={t('create.workflowApp')} />
        </Field>
        <Field label={t('create.nameOptional')}>
          <Input value={name} maxLength={50} onChange={(e) => setName(e.target.value)} />
        </Field>
      </>
    );
  }

  return (
    <Dialog open={mode !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent size={mode === 'openapi' || mode === 'mcp' ? 'lg' : 'md'} closeLabel={t('common:actions.close')} data-testid="create-tool-dialog">
        <form onSubmit={submit} noValidate>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>
          <DialogBody className={s.dialogBody}>
            {body}
            {error && (
              <p role="alert" className={s.formError}>
                {error}
              </p>
            )}
          </DialogBody>
          <DialogFooter>
            <Button type="button" variant="secondary" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" variant="primary" loading={busy}>
              {t('actions.save')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
