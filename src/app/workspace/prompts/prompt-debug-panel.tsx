/**
 * The prompt debug view beside the prompt form (spec 2 "prompt-add/{promptId?}: … a debug view also
 * exists"): a value per parsed variable, a model, Run (the answer streams token by token) and Stop,
 * the rendered prompt, the answer and the tokens used; Optimize (a model's rewrite to accept or
 * discard) and Generate questions (test questions that can be sent with the run).
 */
import { Check, Lightbulb, Play, Sparkles, Square, X } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AvailableProvider } from '../../../../schemas/model';
import type { PromptModel, PromptVariable, TemplateType } from '../../../../schemas/prompt';
import type { DebugUsage } from '../../../../schemas/prompt-debug';
import { ApiError } from '../../../api/request';
import { Button } from '../../../ui/button';
import { Field } from '../../../ui/field';
import { Input } from '../../../ui/input';
import { Select } from '../../../ui/select';
import { Spinner } from '../../../ui/spinner';
import { Textarea } from '../../../ui/textarea';
import { usePromptApi } from './prompt-api';
import s from './prompt-debug-panel.module.css';
import { NoModelNotice } from '../../shell/no-model-notice';

export interface PromptDebugPanelProps {
  workspaceId: string;
  promptId?: string;
  content: string;
  templateType: TemplateType;
  /** The variables parsed from the content (their defaults fill the values). */
  variables: PromptVariable[];
  /** The prompt's saved model, picked first when available. */
  model?: PromptModel | null;
  /** The user accepted an optimized content. */
  onAcceptContent(content: string): void;
}

type RunState = 'idle' | 'running' | 'stopping';

const SEP = '::';
const errorText = (e: unknown) => (e instanceof ApiError ? e.msg || e.code : e instanceof Error ? e.message : String(e));

export function PromptDebugPanel({ workspaceId, promptId, content, templateType, variables, model, onAcceptContent }: PromptDebugPanelProps) {
  const { t } = useTranslation('prompt');
  const api = usePromptApi();
  const [providers, setProviders] = useState<AvailableProvider[] | null>(null);
  const [picked, setPicked] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [query, setQuery] = useState('');
  const [state, setState] = useState<RunState>('idle');
  const [rendered, setRendered] = useState('');
  const [answer, setAnswer] = useState('');
  const [usage, setUsage] = useState<DebugUsage | null>(null);
  const [outcome, setOutcome] = useState<'succeeded' | 'stopped' | null>(null);
  const [error, setError] = useState('');
  const [optimizing, setOptimizing] = useState(false);
  const [rewrite, setRewrite] = useState<string | null>(null);
  const [optimizeError, setOptimizeError] = useState('');
  const [generating, setGenerating] = useState(false);
  const [questions, setQuestions] = useState<string[]>([]);
  const [questionError, setQuestionError] = useState('');
  const messageId = useRef<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => {
    let live = true;
    api.availableModels().then(
      (list) => live && setProviders(list),
      () => live && setProviders([]),
    );
    return () => {
      live = false;
      abort.current?.abort();
    };
  }, [api]);

  // Models loaded and none there: every AI action is off before the click, with what is missing.
  const noModel = providers !== null && providers.every((p) => p.models.length === 0);
  const options = useMemo(
    () => (providers ?? []).flatMap((p) => p.models.map((m) => ({ value: `${p.provider}${SEP}${m.model}`, label: `${p.label} / ${m.label || m.model}` }))),
    [providers],
  );
  // The saved model when it is available, else the first one.
  useEffect(() => {
    if (picked && options.some((o) => o.value === picked)) return;
    const saved = model ? `${model.provider}${SEP}${model.name}` : '';
    setPicked(options.find((o) => o.value === saved)?.value ?? options[0]?.value ?? '');
  }, [options, model, picked]);

  const chosenModel = () => {
    if (!picked) return undefined;
    const at = picked.indexOf(SEP);
    return { provider: picked.slice(0, at), name: picked.slice(at + SEP.length) };
  };
  const valueOf = (v: PromptVariable) => values[v.name] ?? v.default;
  const filled = () => Object.fromEntries(variables.map((v) => [v.name, valueOf(v)]));
  const hasContent = content.trim().length > 0;

  async function run(q = query) {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    messageId.current = null;
    setState('running');
    setRendered('');
    setAnswer('');
    setUsage(null);
    setOutcome(null);
    setError('');
    try {
      const body = { prompt_id: promptId, content, template_type: templateType, variables: filled(), model: chosenModel(), ...(q.trim() ? { query: q } : {}) };
      for await (const e of api.debug(workspaceId, body, controller.signal)) {
        if (e.type === 'message_created') {
          messageId.current = e.message_id;
          setRendered(e.rendered_prompt);
        } else if (e.type === 'text_chunk') setAnswer((a) => a + e.text);
        else if (e.type === 'message_end') {
          setAnswer(e.answer);
          setUsage(e.usage);
          setOutcome(e.status);
        } else if (e.type === 'error') setError(e.message);
      }
    } catch (e) {
      if (!controller.signal.aborted) setError(errorText(e));
    } finally {
      if (abort.current === controller) {
        abort.current = null;
        setState('idle');
      }
    }
  }

  async function stop() {
    const id = messageId.current;
    if (!id) return abort.current?.abort();
    setState('stopping');
    try {
      await api.stopDebug(workspaceId, id);
    } catch (e) {
      // Could not stop on the server: close the connection (that stops the model call too).
      abort.current?.abort();
      setError(errorText(e));
    }
  }

  async function optimize() {
    setOptimizing(true);
    setOptimizeError('');
    setRewrite(null);
    try {
      setRewrite(await api.optimize(workspaceId, { content, template_type: templateType, model: chosenModel() }));
    } catch (e) {
      setOptimizeError(errorText(e));
    } finally {
      setOptimizing(false);
    }
  }

  async function generate() {
    setGenerating(true);
    setQuestionError('');
    try {
      setQuestions(await api.generateQuestions(workspaceId, { content, template_type: templateType, variables: filled(), model: chosenModel(), count: 3 }));
    } catch (e) {
      setQuestionError(errorText(e));
    } finally {
      setGenerating(false);
    }
  }

  const busy = state !== 'idle';
  return (
    <section className={s.panel} aria-label={t('debug.title')} data-testid="prompt-debug-panel">
      <header className={s.head}>
        <h2 className={s.title}>{t('debug.title')}</h2>
        <div className={s.headActions}>
          <Button size="sm" variant="ghost" loading={optimizing} icon={<Sparkles aria-hidden="true" />} disabled={!hasContent || noModel} onClick={optimize}>
            {t('debug.optimize')}
          </Button>
          <Button size="sm" variant="ghost" loading={generating} icon={<Lightbulb aria-hidden="true" />} disabled={!hasContent || noModel} onClick={generate}>
            {t('debug.generateQuestions')}
          </Button>
        </div>
      </header>

      {optimizeError && (
        <p className={s.error} role="alert">
          {t('debug.optimizeFailed', { message: optimizeError })}
        </p>
      )}
      {rewrite !== null && (
        <div className={s.block} data-testid="prompt-rewrite">
          <div className={s.blockTitle}>{t('debug.rewrite')}</div>
          <pre className={s.pre}>{rewrite}</pre>
          <div className={s.row}>
            <Button
              size="sm"
              variant="primary"
              icon={<Check aria-hidden="true" />}
              onClick={() => {
                onAcceptContent(rewrite);
                setRewrite(null);
              }}
            >
              {t('debug.accept')}
            </Button>
            <Button size="sm" icon={<X aria-hidden="true" />} onClick={() => setRewrite(null)}>
              {t('debug.discard')}
            </Button>
          </div>
        </div>
      )}

      <Field label={t('debug.model')}>
        {providers && options.length === 0 ? (
          <NoModelNotice />
        ) : (
          <Select aria-label={t('debug.model')} size="sm" options={options} value={picked} onValueChange={setPicked} placeholder={providers ? t('debug.pickModel') : t('debug.loadingModels')} />
        )}
      </Field>

      <div className={s.block}>
        <div className={s.blockTitle}>{t('debug.values')}</div>
        {variables.length === 0 ? (
          <p className={s.hint}>{t('debug.noVariables')}</p>
        ) : (
          variables.map((v) => (
            <Field key={v.name} label={<code>{v.name}</code>} help={v.description || undefined}>
              <Input size="sm" value={valueOf(v)} onChange={(e) => setValues((x) => ({ ...x, [v.name]: e.target.value }))} />
            </Field>
          ))
        )}
      </div>

      {questionError && (
        <p className={s.error} role="alert">
          {t('debug.questionsFailed', { message: questionError })}
        </p>
      )}
      {questions.length > 0 && (
        <div className={s.block}>
          <div className={s.blockTitle}>{t('debug.questions')}</div>
          <ul className={s.questions}>
            {questions.map((q) => (
              <li key={q}>
                <span>{q}</span>
                <Button
                  size="sm"
                  variant="link"
                  disabled={busy}
                  onClick={() => {
                    setQuery(q);
                    void run(q);
                  }}
                >
                  {t('debug.ask')}
                </Button>
              </li>
            ))}
          </ul>
        </div>
      )}

      <Field label={t('debug.query')} help={t('debug.queryHelp')}>
        <Textarea rows={2} value={query} onChange={(e) => setQuery(e.target.value)} placeholder={t('debug.queryPlaceholder')} />
      </Field>

      <div className={s.row}>
        {busy ? (
          <Button variant="danger" icon={<Square aria-hidden="true" />} onClick={stop} disabled={state === 'stopping'}>
            {t('debug.stop')}
          </Button>
        ) : (
          <Button variant="primary" icon={<Play aria-hidden="true" />} onClick={() => run()} disabled={!hasContent || !picked || noModel}>
            {t('debug.run')}
          </Button>
        )}
        {busy && <Spinner size={14} label={t('debug.running')} />}
      </div>

      {error && (
        <p className={s.error} role="alert">
          {error}
        </p>
      )}
      {rendered && (
        <details className={s.block}>
          <summary className={s.blockTitle}>{t('debug.rendered')}</summary>
          <pre className={s.pre} data-testid="prompt-rendered">
            {rendered}
          </pre>
        </details>
      )}
      {(answer || busy || outcome) && (
        <div className={s.block}>
          <div className={s.blockTitle}>
            {t('debug.answer')}
            {outcome === 'stopped' && <span className={s.stopped}>{t('debug.stopped')}</span>}
          </div>
          <pre className={s.answer} data-testid="prompt-answer" aria-live="polite">
            {answer}
          </pre>
          {usage && <p className={s.hint}>{t('debug.usage', { prompt: usage.prompt_tokens, completion: usage.completion_tokens, total: usage.total_tokens })}</p>}
        </div>
      )}
    </section>
  );
}
