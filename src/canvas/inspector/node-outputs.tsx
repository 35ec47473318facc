import { useVariableLabels } from '../widgets/labels';
import type { VariableOption } from '../widgets/variables';
import s from './inspector.module.css';

/** What the node gives later nodes (Dify's "output variables" list): read-only, typed. */
export function NodeOutputs({ options, title }: { options: readonly VariableOption[]; title: string }) {
  const { optionLabel, typeLabel } = useVariableLabels();
  if (!options.length) return null;
  return (
    <details className={s.outputs} open>
      <summary>{title}</summary>
      <ul aria-label={title}>
        {options.map((o) => (
          <li key={o.selector.join('.')} style={{ paddingLeft: o.depth * 12 }}>
            <code>{o.depth ? o.selector[o.selector.length - 1] : o.name}</code>
            <span className={s.outputType}>{typeLabel(o.type)}</span>
            {optionLabel(o) && <span className={s.outputLabel}>{optionLabel(o)}</span>}
          </li>
        ))}
      </ul>
    </details>
  );
}
