import { Paperclip, RotateCcw, Send, Square } from 'lucide-react';
import { lazy, Suspense, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { shownSuggestedQuestions, type AppFeatures, type ConversationVariable } from '../../../schemas/flow';
import { loadTexts } from '../../i18n';
import { FileUpload } from '../../kit/widgets/file-upload';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import { Textarea } from '../../ui/textarea';
import { ConversationVariables } from './conversation-variables';
import type { DebugApi } from './debug-api';
import { RunForm } from './run-form';
import { useRunTrace, type RunStore } from './run-store';
import { isFileField, missingFields, toRunInputs, type RunField, type RunFormFile, type RunFormValues } from './start-fields';
import { RunStatusBadge, TraceView } from './trace-view';
import type { RunTrace } from './trace';
import type { DebugRun } from './use-debug-run';
import s from './debug.module.css';

// The voice bar and its texts (the portal's voice strings) load when a chat with voice opens.
const DebugVoice = lazy(() => Promise.all([import('./debug-voice'), loadTexts(['portal'])]).then(([m]) => m));

interface Turn {
  key: number;
  query: string;
  files: RunFormFile[];
  /** Set once the run ended; the live turn reads the run store. */
  trace?: RunTrace;
}

export interface ChatPanelProps {
  api: DebugApi;
  runs: RunStore;
  run: DebugRun;
  fields: readonly RunField[];
  declaredVariables: readonly ConversationVariable[];
  /** The app's features: a new conversation opens with the opening statement and suggested questions, as end users see it. */
  features?: Pick<AppFeatures, 'opening_statement' | 'suggested_questions' | 'suggested_questions_random_count'> & Partial<Pick<AppFeatures, 'text_to_speech'>>;
}

interface TraceToggle {
  /** Whether the answer's trace is open: kept by the chat per turn, so that it stays open when the live answer becomes the finished one. */
  traceOpen: boolean;
  onTraceToggle: (open: boolean) => void;
}

function Answer({ trace, live, traceOpen, onTraceToggle }: { trace: RunTrace; live: boolean } & TraceToggle) {
  const { t } = useTranslation('debug');
  const waiting = live && !trace.answer && (trace.status === 'running' || trace.status === 'pending');
  return (
    <div className={s.answer} data-testid="chat-answer" data-status={trace.status}>
      {waiting ? (
        <Spinner size={14} label={t('chat.thinking')} />
      ) : (
        <p className={s.answerText} data-testid="chat-answer-text">
          {trace.answer || (live && trace.status === 'running' ? '' : t('chat.noAnswer'))}
        </p>
      )}
      <details className={s.answerTrace} data-testid="chat-trace" open={traceOpen} onToggle={(e) => onTraceToggle(e.currentTarget.open)}>
        <summary>
          <RunStatusBadge status={trace.status} /> {t('trace.show')}
        </summary>
        <TraceView trace={trace} hideStatus />
      </details>
    </div>
  );
}

/** The live turn: the only part that re-renders on every streamed token. */
function LiveAnswer({ runs, ...toggle }: { runs: RunStore } & TraceToggle) {
  return <Answer trace={useRunTrace(runs)} live {...toggle} />;
}

/**
 * The chat of chatflow, agent and agent-team apps: the answer streams in as the run sends it, each
 * answer opens on its trace; stop, restart (a new conversation), the start form's inputs (sent with
 * each message), files when the start node takes them, and the conversation variables. A new
 * conversation opens with the app's opening statement and suggested questions (at most the
 * random-display count, picked again for each conversation; a click asks one). With the app's
 * speech calls (`api.speech`) the chat also has the portal's voice bar: microphone, answers read out
 * (speaker toggle), speaking again interrupts.
 */
export function ChatPanel({ api, runs, run, fields, declaredVariables, features }: ChatPanelProps) {
  const { t } = useTranslation('debug');
  const [turns, setTurns] = useState<Turn[]>([]);
  const [conversationId, setConversationId] = useState<string>();
  const [text, setText] = useState('');
  const [values, setValues] = useState<RunFormValues>({});
  const [missing, setMissing] = useState<string[]>([]);
  const [showInputs, setShowInputs] = useState(fields.length > 0);
  const [attachOpen, setAttachOpen] = useState(false);
  const [files, setFiles] = useState<RunFormFile[]>([]);
  const [version, setVersion] = useState(0);
  const [conversationNo, setConversationNo] = useState(0);
  const [openTraces, setOpenTraces] = useState<ReadonlySet<number>>(() => new Set());
  const traceToggle = (key: number): TraceToggle => ({
    traceOpen: openTraces.has(key),
    onTraceToggle: (open) =>
      setOpenTraces((prev) => {
        if (prev.has(key) === open) return prev;
        const next = new Set(prev);
        if (open) next.add(key);
        else next.delete(key);
        return next;
      }),
  });
  // Answers read out: as the app's spoken answers are set, then as the builder toggles it here.
  const [speak, setSpeak] = useState(features?.text_to_speech ?? false);
  const seq = useRef(0);
  const liveKey = useRef<number | null>(null);
  const takesFiles = fields.some(isFileField);
  const opening = features?.opening_statement.trim() ?? '';
  const questions = features?.suggested_questions;
  const count = features?.suggested_questions_random_count ?? 0;
  // Picked once per conversation (and again when the builder changes them).
  const suggestions = useMemo(
    () => (questions ? shownSuggestedQuestions({ suggested_questions: questions, suggested_questions_random_count: count }) : []),
    [questions, count, conversationNo], // eslint-disable-line react-hooks/exhaustive-deps -- a new conversation picks again
  );

  const send = async (asked?: string) => {
    const query = (asked ?? text).trim();
    if (!query || run.running) return;
    const lacking = missingFields(fields, values);
    setMissing(lacking);
    if (lacking.length) {
      setShowInputs(true);
      return;
    }
    const key = ++seq.current;
    const sent = files;
    liveKey.current = key;
    setTurns((ts) => [...ts, { key, query, files: sent }]);
    setText('');
    setFiles([]);
    setAttachOpen(false);
    const trace = await run.start('chat', {
      query,
      ...(conversationId ? { conversation_id: conversationId } : {}),
      inputs: toRunInputs(fields, values),
      ...(sent.length ? { files: sent.filter((f) => f.id).map((f) => ({ file_id: f.id!, name: f.name, ...(f.mime_type ? { type: f.mime_type } : {}) })) } : {}),
    });
    liveKey.current = null;
    if (!trace) {
      // Not started (the draft could not be saved): give the message back.
      setTurns((ts) => ts.filter((x) => x.key !== key));
      if (asked === undefined) setText(query);
      setFiles(sent);
      return;
    }
    setTurns((ts) => ts.map((x) => (x.key === key ? { ...x, trace } : x)));
    if (trace.conversationId) setConversationId(trace.conversationId);
    setVersion((v) => v + 1);
  };

  // The voice bar sends what it heard after a recording that began mid-run: the latest send, not that render's.
  const sendLatest = useRef(send);
  sendLatest.current = send;

  const restart = async () => {
    if (run.running) await run.stop();
    setTurns([]);
    setConversationId(undefined);
    runs.reset();
    setVersion((v) => v + 1);
    setConversationNo((n) => n + 1);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <div className={s.chat} data-testid="debug-chat">
      <div className={s.sections}>
        {fields.length > 0 && (
          <details className={s.section} open={showInputs} onToggle={(e) => setShowInputs(e.currentTarget.open)}>
            <summary>{t('inputs.title')}</summary>
            <RunForm fields={fields} values={values} onChange={setValues} missing={missing} upload={api.upload} disabled={run.running} />
          </details>
        )}
        {declaredVariables.length > 0 && (
          <details className={s.section}>
            <summary>{t('variables.title')}</summary>
            <ConversationVariables api={api} conversationId={conversationId} declared={declaredVariables} version={version} disabled={run.running} />
          </details>
        )}
      </div>
      <ol className={s.messages} aria-live="polite" data-testid="chat-messages">
        {opening && (
          <li className={s.turn}>
            <div className={s.answer} data-testid="chat-opening">
              <p className={s.answerText}>{opening}</p>
            </div>
          </li>
        )}
        {turns.length === 0 && suggestions.length > 0 && (
          <li className={s.suggestions} data-testid="chat-suggestions" aria-label={t('chat.suggested')}>
            {suggestions.map((q) => (
              <button key={q} type="button" className={s.suggestion} disabled={run.running} onClick={() => void send(q)}>
                {q}
              </button>
            ))}
          </li>
        )}
        {turns.length === 0 && !opening && suggestions.length === 0 && <li className={s.emptyChat}>{t('chat.empty')}</li>}
        {turns.map((turn) => (
          <li key={turn.key} className={s.turn}>
            <div className={s.question} data-testid="chat-question">
              <span className={s.srOnly}>{t('chat.you')}</span>
              {turn.query}
              {turn.files.length > 0 && <span className={s.muted}> · {turn.files.map((f) => f.name).join(', ')}</span>}
            </div>
            {turn.trace ? (
              <Answer trace={turn.trace} live={false} {...traceToggle(turn.key)} />
            ) : liveKey.current === turn.key ? (
              <LiveAnswer runs={runs} {...traceToggle(turn.key)} />
            ) : null}
          </li>
        ))}
      </ol>
      <div className={s.composer}>
        {api.speech && (
          <Suspense fallback={null}>
            <DebugVoice
              speech={api.speech}
              name={t('chat.assistant')}
              runs={runs}
              answered={turns}
              liveKey={liveKey.current}
              speak={speak}
              onSpeakChange={setSpeak}
              busy={run.running}
              onSend={(q) => void sendLatest.current(q)}
              onStop={() => void run.stop()}
            />
          </Suspense>
        )}
        {attachOpen && <FileUpload value={files} onChange={setFiles} upload={api.upload} disabled={run.running} />}
        <Textarea
          rows={2}
          resize="none"
          value={text}
          placeholder={t('chat.placeholder')}
          aria-label={t('chat.placeholder')}
          data-testid="chat-input"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <div className={s.row}>
          <Button size="sm" variant="ghost" icon={<RotateCcw aria-hidden="true" />} title={t('chat.restartHint')} onClick={() => void restart()} data-testid="chat-restart">
            {t('chat.restart')}
          </Button>
          {takesFiles && (
            <Button size="sm" variant="ghost" icon={<Paperclip aria-hidden="true" />} aria-pressed={attachOpen} onClick={() => setAttachOpen((o) => !o)}>
              {t('chat.attach')}
            </Button>
          )}
          <span className={s.grow} />
          {run.running ? (
            <Button size="sm" variant="danger" icon={<Square aria-hidden="true" />} onClick={() => void run.stop()} data-testid="chat-stop">
              {t('chat.stop')}
            </Button>
          ) : (
            <Button size="sm" variant="primary" icon={<Send aria-hidden="true" />} disabled={!text.trim()} onClick={() => void send()} data-testid="chat-send">
              {t('chat.send')}
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}
