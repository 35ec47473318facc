import { Search } from 'lucide-react';
import { useMemo, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FlowMode } from '../../../schemas/flow';
import { NODE_CATEGORIES, type AnyNodePlugin, type NodeCategory, type NodeRegistry } from '../../plugin-sdk';
import { useFlowStore } from '../react/use-flow-store';
import { NodeIcon } from './node-icon';
import { kindDescription, kindTitle } from './plugin-texts';
import s from './editor.module.css';

/** The drag-and-drop data type of a palette item (its value is the node kind). */
export const PALETTE_DRAG_TYPE = 'application/x-weft-node-kind';

export interface PaletteGroup {
  category: NodeCategory;
  plugins: AnyNodePlugin[];
}

type T = (key: string) => string;

/**
 * The kinds the palette offers in a mode, grouped by category in the SDK's order: only kinds of
 * the mode with `palette: true`, matching `query` in their translated title or description or
 * their kind (any case).
 */
export function paletteGroups(registry: NodeRegistry, mode: FlowMode, query: string, t: T): PaletteGroup[] {
  const q = query.trim().toLowerCase();
  const fits = (p: AnyNodePlugin) =>
    !q || p.kind.includes(q) || kindTitle(t, p).toLowerCase().includes(q) || kindDescription(t, p).toLowerCase().includes(q);
  const offered = registry.list(mode).filter((p) => p.palette && fits(p));
  return NODE_CATEGORIES.map((category) => ({ category, plugins: offered.filter((p) => p.category === category) })).filter((g) => g.plugins.length > 0);
}

export interface PaletteProps {
  registry: NodeRegistry;
  mode: FlowMode;
  onPick(kind: string): void;
  /** Items can be dragged onto the canvas (the side palette; not the "+" popover). */
  draggable?: boolean;
  autoFocus?: boolean;
  testId?: string;
}

/**
 * The one-per-flow kinds (`singleton`, such as start) the flow already has at its top level, as
 * one string so the palette re-renders only when that changes.
 */
function useTakenKinds(registry: NodeRegistry): ReadonlySet<string> {
  const taken = useFlowStore((st) => {
    const kinds = new Set<string>();
    for (const n of st.document.nodes) if (!n.parentId && registry.get(n.kind)?.singleton) kinds.add(n.kind);
    return [...kinds].sort().join(' ');
  });
  return useMemo(() => new Set(taken.split(' ').filter(Boolean)), [taken]);
}

/** A searchable list of node kinds grouped by category; a one-per-flow kind the flow has is shown disabled, with why. */
export function Palette({ registry, mode, onPick, draggable, autoFocus, testId = 'palette' }: PaletteProps) {
  const { t } = useTranslation(['editor']);
  const taken = useTakenKinds(registry);
  const [query, setQuery] = useState('');
  const tt = t as unknown as T;
  const groups = useMemo(() => paletteGroups(registry, mode, query, tt), [registry, mode, query, tt]);
  const onDragStart = (e: DragEvent, kind: string) => {
    e.dataTransfer.setData(PALETTE_DRAG_TYPE, kind);
    e.dataTransfer.effectAllowed = 'copy';
  };
  return (
    <div className={s.palette} data-testid={testId}>
      <label className={s.paletteSearch}>
        <Search aria-hidden="true" />
        <input
          type="search"
          value={query}
          placeholder={t('palette.search')}
          aria-label={t('palette.search')}
          autoFocus={autoFocus}
          data-testid={`${testId}-search`}
          onChange={(e) => setQuery(e.target.value)}
        />
      </label>
      <div className={s.paletteList} role="list">
        {groups.length === 0 && <div className={s.paletteEmpty}>{t('palette.empty')}</div>}
        {groups.map((g) => (
          <section key={g.category} className={s.paletteGroup} aria-label={t(`categories.${g.category}`)} data-category={g.category}>
            <h3 className={s.paletteGroupTitle}>{t(`categories.${g.category}`)}</h3>
            {g.plugins.map((p) => {
              const disabled = taken.has(p.kind);
              const reasonId = `${testId}-taken-${p.kind}`;
              return (
                <button
                  key={p.kind}
                  type="button"
                  role="listitem"
                  className={s.paletteItem}
                  draggable={draggable && !disabled}
                  disabled={disabled}
                  aria-describedby={disabled ? reasonId : undefined}
                  title={disabled ? t('palette.singletonTaken') : kindDescription(tt, p)}
                  data-testid={`${testId}-item-${p.kind}`}
                  style={{ ['--kind-color' as string]: p.color ?? 'var(--color-primary)' }}
                  onDragStart={draggable && !disabled ? (e) => onDragStart(e, p.kind) : undefined}
                  onClick={() => onPick(p.kind)}
                >
                  <span className={s.icon}>
                    <NodeIcon icon={p.icon} size={14} />
                  </span>
                  <span className={s.paletteText}>
                    <span className={s.paletteTitle}>{kindTitle(tt, p)}</span>
                    {disabled ? (
                      <span className={s.paletteDescription} id={reasonId}>
                        {t('palette.singletonTaken')}
                      </span>
                    ) : (
                      <span className={s.paletteDescription}>{kindDescription(tt, p)}</span>
                    )}
                  </span>
                </button>
              );
            })}
          </section>
        ))}
      </div>
    </div>
  );
}
