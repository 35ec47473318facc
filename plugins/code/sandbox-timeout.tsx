import { getConfig } from '../../src/app/config';
import { ariaOf } from '../../src/kit/widgets/types';
import { NumberInput } from '../../src/kit/widgets/number-input';
import { cn } from '../../src/ui/cn';
import { useInspectorT, widgetStyles as s, type NodeWidgetProps } from '../../src/canvas/widgets/kit';

/**
 * A sandboxed node's timeout in seconds, with the server's own cap below it (/config.json
 * `sandbox.maxTimeoutSeconds`, the operator's WEFT_SANDBOX_MAX_TIMEOUT_MS): the node may ask for
 * more, but its code is stopped at the cap, so the builder should see that here rather than in a
 * failed run.
 */
export function SandboxTimeoutWidget(p: NodeWidgetProps) {
  const { t } = useInspectorT();
  const cap = getConfig().sandbox.maxTimeoutSeconds;
  const value = typeof p.value === 'number' ? p.value : undefined;
  const capped = value !== undefined && value > cap;
  return (
    <div className={s.sandboxTimeout}>
      <NumberInput
        {...ariaOf(p)}
        value={value}
        onChange={p.onChange}
        onBlur={p.onBlur}
        min={p.field.checks.min}
        max={p.field.checks.max}
        integer={p.field.checks.int}
        disabled={p.disabled}
        readOnly={p.readOnly}
        invalid={p.invalid}
      />
      <p className={cn(s.muted, capped && s.warning)} data-testid="sandbox-timeout-cap" data-capped={capped || undefined}>
        {capped ? t('sandboxTimeout.capped', { seconds: cap }) : t('sandboxTimeout.cap', { seconds: cap })}
      </p>
    </div>
  );
}
