import { Play } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ParamRow } from '../../../../schemas/parameter';
import type { FunctionTestResult, ToolFunction } from '../../../../schemas/tool';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { Field } from '../../../ui/field';
import { Input } from '../../../ui/input';
import { reportError } from '../members/report-error';
import { useToolApi } from './tool-api';
import s from './tools.module.css';

interface InputSpec {
  key: string;
  label: string;
  required: boolean;
  placeholder: string;
}

/** An empty input's hint: the type, and that arrays and objects are written as JSON. */
const placeholderOf = (r: ParamRow) => (r.is_array ? `${r.data_type || 'string'}[] · JSON` : r.data_type === 'object' ? 'object · JSON' : r.data_type || 'string');

/** The inputs a call takes: query and path rows, header placeholders, and body fields (a json body's `data` fields). */
export function testInputs(fn: Pick<ToolFunction, 'params' | 'headers' | 'body' | 'body_subtype' | 'method'>): InputSpec[] {
  const out: InputSpec[] = [];
  const seen = new Set<string>();
  const add = (r: ParamRow) => {
    if (seen.has(r.param_key)) return;
    seen.add(r.param_key);
    out.push({ key: r.param_key, label: r.param_name && r.param_name !== r.param_key ? `${r.param_key} (${r.param_name})` : r.param_key, required: !!r.is_not_null && !r.default_value, placeholder: r.default_value || placeholderOf(r) });
  };
  fn.params.forEach(add);
  for (const h of fn.headers) for (const m of (h.param_value ?? '').matchAll(/\{([\w.-]+)\}/g)) add({ param_key: m[1], data_type: 'string' });
  if (fn.method !== 'GET' && fn.method !== 'HEAD') {
    const rows = fn.body_subtype === 'json' && fn.body.length === 1 && fn.body[0].param_key === 'data' ? (fn.body[0].children ?? []) : fn.body;
    rows.forEach(add);
  }
  return out;
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** Sample inputs → a real call through the server's guarded HTTP client → status, headers, body, time. */
export function FunctionTestPanel({ workspaceId, toolId, fn, dirty }: { workspaceId: string; toolId: string; fn: ToolFunction | null; dirty: boolean }) {
  const { t } = useTranslation('tools');
  const api = useToolApi();
  const [values, setValues] = useState<Record<string, string>>({});
  const [result, setResult] = useState<FunctionTestResult | null>(null);
  const [busy, setBusy] = useState(false);
  const inputs = useMemo(() => (fn ? testInputs(fn) : []), [fn]);

  async function run() {
    if (!fn) return;
    setBusy(true);
    try {
      const sent = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
      setResult(await api.testFunction(workspaceId, toolId, fn.id, sent));
    } catch (e) {
      reportError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card className={`${s.section} ${s.testPanel}`} data-testid="function-test">
      <div>
        <h2 className={s.sectionTitle}>{t('fn.testTitle')}</h2>
        <p className={s.muted}>{fn ? t('fn.testHelp') : t('fn.saveFirst')}</p>
      </div>
      {fn && inputs.length === 0 && <p className={s.muted}>{t('fn.noInputs')}</p>}
      {fn &&
        inputs.map((i) => (
          <Field key={i.key} label={i.label} required={i.required}>
            <Input size="sm" value={values[i.key] ?? ''} placeholder={i.placeholder} onChange={(e) => setValues({ ...values, [i.key]: e.target.value })} />
          </Field>
        ))}
      {dirty && fn && <p className={s.muted}>{t('fn.saveFirst')}</p>}
      <Button variant="primary" icon={<Play aria-hidden="true" />} disabled={!fn} loading={busy} onClick={() => void run()} data-testid="function-test-run">
        {t('actions.test')}
      </Button>
      {result && (
        <div className={s.sections} data-testid="function-test-result">
          <div className={s.resultHead}>
            <strong>{t('fn.result')}</strong>
            {result.error ? <Badge variant="danger">{result.error.code}</Badge> : <Badge variant={result.status < 400 ? 'success' : 'warning'}>{`${t('fn.status')} ${result.status}`}</Badge>}
            <span className={s.muted}>{t('fn.elapsed', { ms: result.elapsed_ms })}</span>
          </div>
          <code className={s.muted}>
            {result.request.method} {result.request.url}
          </code>
          {result.error ? (
            <p role="alert" className={s.formError}>
              {t('fn.failed')}: {result.error.message}
            </p>
          ) : (
            <>
              <details>
                <summary className={s.muted}>{t('fn.headersTitle')}</summary>
                <pre className={s.pre}>{Object.entries(result.headers).map(([k, v]) => `${k}: ${v}`).join('\n')}</pre>
              </details>
              <pre className={s.pre} data-testid="function-test-body">
                {pretty(result.body)}
              </pre>
            </>
          )}
        </div>
      )}
    </Card>
  );
}
