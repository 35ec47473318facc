/**
 * The api tab's embed section (chat apps): the bubble script with its options (corner, colour, open
 * at start) and the plain iframe, both copyable. The snippets come from ../embed-snippets.ts, the same
 * helper the distribute tab uses, so both tabs give the same text.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Switch } from '../../../../ui/switch';
import { bubbleSnippet, DEFAULT_BUBBLE, iframeSnippet, type BubbleOptions } from '../embed-snippets';
import { CodeBlock } from './code-block';
import s from './api-tab.module.css';

export function EmbedSection({ origin, appId }: { origin: string; appId: string }) {
  const { t } = useTranslation('appapi');
  const [options, setOptions] = useState<BubbleOptions>(DEFAULT_BUBBLE);
  const set = (patch: Partial<BubbleOptions>) => setOptions((o) => ({ ...o, ...patch }));
  const ids = { color: useId(), open: useId() };
  return (
    <div className={s.embed} data-testid="embed-section">
      <section className={s.docPart} aria-labelledby="embed-bubble">
        <h3 id="embed-bubble" className={s.partTitle}>
          {t('embed.bubbleTitle')}
        </h3>
        <p className={s.muted}>{t('embed.bubbleHelp')}</p>
        <div className={s.embedOptions}>
          <div className={s.segmented} role="radiogroup" aria-label={t('embed.position')}>
            {(['right', 'left'] as const).map((p) => (
              <button key={p} type="button" role="radio" aria-checked={options.position === p} className={s.segment} onClick={() => set({ position: p })} data-testid={`embed-position-${p}`}>
                {t(`embed.positions.${p}`)}
              </button>
            ))}
          </div>
          <label className={s.option} htmlFor={ids.color}>
            <input id={ids.color} type="color" className={s.color} value={options.color} onChange={(e) => set({ color: e.target.value })} data-testid="embed-color" />
            {t('embed.color')}
          </label>
          <label className={s.option} htmlFor={ids.open}>
            <Switch id={ids.open} size="sm" checked={options.open} onCheckedChange={(open) => set({ open })} data-testid="embed-open" />
            {t('embed.openAtStart')}
          </label>
        </div>
        <CodeBlock code={bubbleSnippet(origin, appId, options)} label={t('embed.bubbleTitle')} wrap data-testid="embed-bubble" />
      </section>
      <section className={s.docPart} aria-labelledby="embed-iframe">
        <h3 id="embed-iframe" className={s.partTitle}>
          {t('embed.iframeTitle')}
        </h3>
        <p className={s.muted}>{t('embed.iframeHelp')}</p>
        <CodeBlock code={iframeSnippet(origin, appId)} label={t('embed.iframeTitle')} wrap data-testid="embed-iframe" />
      </section>
      <p className={s.muted}>{t('embed.login')}</p>
    </div>
  );
}
