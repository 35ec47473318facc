/**
 * The agent builder's AI helpers (spec 2 "AI optimization"): "Optimize the instructions" streams a
 * rewrite from the tenant's default LLM and shows it against the current text as a word diff, which
 * the builder accepts (one undoable edit) or rejects; "Generate from a description" writes a first
 * configuration (instructions, opening statement, suggested questions, user inputs) as one
 * undoable edit. Without a usable default model the buttons are off and say so before any click,
 * with a link to System › Models for those who may go there.
 */
import { Sparkles, Wand2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import type { GeneratedAgent } from '../../../../../schemas/agent-builder';
import { featuresOf } from '../../../../../schemas/flow';
import { generateAgentConfig, streamOptimizeInstructions } from '../../../../api/agent-builder';
import { describeError } from '../../../../api/reactions';
import type { FlowStore } from '../../../../canvas';
import { Button, Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, Input, Label, Textarea, toast } from '../../../../ui';
import { canEnterSystem } from '../../../guards';
import { useSession } from '../../../session';
import { useBuilderT } from './builder-sections';
import s from './builder.module.css';
import { wordDiff } from './word-diff';

export interface AiTarget {
  store: FlowStore;
  appId: string;
  workspaceId: string;
  startId: string;
  agentId: string;
}

/** Why the helpers cannot run (no default model), with the way to fix it; null when they can. */
export function ModelMissing({ visible }: { visible: boolean }) {
  const { t } = useBuilderT();
  const user = useSession((st) => st.user);
  if (!visible) return null;
  return (
    <p className={s.modelMissing} role="note" data-testid="builder-no-model">
      {t('ai.noModel')}{' '}
      {canEnterSystem(user) ? (
        <Link to="/operation/system/model" data-testid="builder-no-model-link">
          {t('ai.noModelAdmin')}
        </Link>
      ) : (
        t('ai.noModelAsk')
      )}
    </p>
  );
}

const instructionsOf = (store: FlowStore, agentId: string) => {
  const v = store.getState().document.nodes.find((n) => n.id === agentId)?.config.instructions;
  return typeof v === 'string' ? v : '';
};

type Optimize = { state: 'idle' } | { state: 'running'; text: string } | { state: 'done'; text: string; dropped: string[]; added: string[] } | { state: 'failed'; message: string };

/** The optimize button and its dialog: goal, the streamed rewrite, then the diff to accept or reject. */
export function OptimizeButton({ target, disabled }: { target: AiTarget; disabled: boolean }) {
  const { t } = useBuilderT();
  const [open, setOpen] = useState(false);
  const [goal, setGoal] = useState('');
  const [before, setBefore] = useState('');
  const [run, setRun] = useState<Optimize>({ state: 'idle' });
  const ctrl = useRef<AbortController | null>(null);

  const stop = () => {
    ctrl.current?.abort();
    ctrl.current = null;
  };
  const close = () => {
    stop();
    setOpen(false);
    setRun({ state: 'idle' });
  };
  const start = async () => {
    const current = instructionsOf(target.store, target.agentId);
    setBefore(current);
    if (!current.trim()) return setRun({ state: 'failed', message: t('ai.emptyInstructions') });
    stop();
    const c = new AbortController();
    ctrl.current = c;
    setRun({ state: 'running', text: '' });
    let text = '';
    try {
      for await (const e of streamOptimizeInstructions(target.appId, { instructions: current, goal }, { workspaceId: target.workspaceId, signal: c.signal, reaction: 'silent' })) {
        if (e.type === 'text_chunk') setRun({ state: 'running', text: (text += e.text) });
        else if (e.type === 'optimize_end') setRun({ state: 'done', text: e.text, dropped: e.dropped, added: e.added });
        else if (e.type === 'error') setRun({ state: 'failed', message: t('ai.failed', { message: e.message }) });
      }
    } catch (err) {
      if (!c.signal.aborted) setRun({ state: 'failed', message: t('ai.failed', { message: describeError(err, 'silent')?.text ?? String(err) }) });
      else setRun({ state: 'idle' });
    }
  };
  const accept = () => {
    if (run.state !== 'done') return;
    // One undo step of its own, apart from any typing in the field.
    target.store.sealHistory();
    target.store.updateConfig(target.agentId, ['instructions'], run.text, { merge: false });
    target.store.sealHistory();
    toast.success(t('ai.accepted'));
    close();
  };

  return (
    <>
      <Button size="sm" variant="secondary" disabled={disabled} onClick={() => setOpen(true)} data-testid="builder-optimize">
        <Sparkles aria-hidden="true" />
        {t('ai.optimize')}
      </Button>
      <Dialog open={open} onOpenChange={(o) => !o && close()}>
        <DialogContent size="lg" data-testid="optimize-dialog" closeLabel={t('cancel')}>
          <DialogHeader>
            <DialogTitle>{t('ai.optimize')}</DialogTitle>
            <DialogDescription>{t('ai.diffHint')}</DialogDescription>
          </DialogHeader>
          <DialogBody className={s.aiBody}>
            <Label htmlFor="optimize-goal">{t('ai.goal')}</Label>
            <div className={s.aiRow}>
              <Input id="optimize-goal" value={goal} maxLength={2000} placeholder={t('ai.goalPlaceholder')} onChange={(e) => setGoal(e.target.value)} data-testid="optimize-goal" />
              {run.state === 'running' ? (
                <Button variant="secondary" onClick={stop}>
                  {t('ai.stop')}
                </Button>
              ) : (
                <Button variant="primary" onClick={() => void start()} data-testid="optimize-start">
                  {t('ai.start')}
                </Button>
              )}
            </div>
            {run.state === 'running' && (
              <pre className={s.diff} aria-busy="true" aria-label={t('ai.running')} data-testid="optimize-streaming">
                {run.text || t('ai.running')}
              </pre>
            )}
            {run.state === 'done' && (
              <>
                <pre className={s.diff} data-testid="optimize-diff">
                  {wordDiff(before, run.text).map((p, i) =>
                    p.type === 'same' ? <span key={i}>{p.text}</span> : p.type === 'removed' ? <del key={i}>{p.text}</del> : <ins key={i}>{p.text}</ins>,
                  )}
                </pre>
                {run.dropped.length > 0 && <p className={s.warn}>{t('ai.dropped', { refs: run.dropped.join(', ') })}</p>}
                {run.added.length > 0 && <p className={s.warn}>{t('ai.added', { refs: run.added.join(', ') })}</p>}
              </>
            )}
            {run.state === 'failed' && (
              <p className={s.error} role="alert" data-testid="optimize-error">
                {run.message}
              </p>
            )}
          </DialogBody>
          <DialogFooter>
            <Button variant="secondary" onClick={close} data-testid="optimize-reject">
              {run.state === 'done' ? t('ai.reject') : t('cancel')}
            </Button>
            <Button variant="primary" disabled={run.state !== 'done'} onClick={accept} data-testid="optimize-accept">
              {t('ai.accept')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}

/** Writes a generated configuration into the flow document as one undo step. */
export function applyGenerated(target: AiTarget, g: GeneratedAgent) {
  const { store } = target;
  store.sealHistory();
  store.batch(() => {
    store.updateConfig(target.agentId, ['instructions'], g.instructions, { merge: false });
    store.updateConfig(
      target.startId,
      ['variables'],
      g.variables.map((v) => ({ ...v, allowed_extensions: [] })),
      { merge: false },
    );
    store.edit((d) => {
      d.features = { ...featuresOf(d), opening_statement: g.opening_statement, suggested_questions: g.suggested_questions };
    });
  });
  store.sealHistory();
}

/** The generate button and its dialog (a description, then the configuration is written). */
export function GenerateButton({ target, disabled }: { target: AiTarget; disabled: boolean }) {
  const { t } = useBuilderT();
  const [open, setOpen] = useState(false);
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const generate = async () => {
    setBusy(true);
    setError('');
    try {
      applyGenerated(target, await generateAgentConfig(target.appId, { description }, { workspaceId: target.workspaceId, reaction: 'silent' }));
      toast.success(t('ai.generated'));
      setOpen(false);
    } catch (err) {
      setError(describeError(err, 'silent')?.text ?? String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="sm" variant="secondary" disabled={disabled} onClick={() => setOpen(true)} data-testid="builder-generate">
        <Wand2 aria-hidden="true" />
        {t('ai.generate')}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent size="md" data-testid="generate-dialog" closeLabel={t('cancel')}>
          <DialogHeader>
            <DialogTitle>{t('ai.generateTitle')}</DialogTitle>
            <DialogDescription>{t('ai.generateHint')}</DialogDescription>
          </DialogHeader>
          <DialogBody className={s.aiBody}>
            <Label htmlFor="generate-description">{t('ai.description')}</Label>
            <Textarea id="generate-description" rows={3} maxLength={2000} value={description} placeholder={t('ai.descriptionPlaceholder')} onChange={(e) => setDescription(e.target.value)} data-testid="generate-description" />
            {error && (
              <p className={s.error} role="alert">
                {error}
              </p>
            )}
          </DialogBody>
          <DialogFooter>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              {t('cancel')}
            </Button>
            <Button variant="primary" disabled={busy || !description.trim()} onClick={() => void generate()} data-testid="generate-run">
              {busy ? t('ai.running') : t('ai.generateRun')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
