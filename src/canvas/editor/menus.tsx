import { useReactFlow } from '@xyflow/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatShortcut } from '../commands';
import { useFlowStore } from '../react/use-flow-store';
import { useFlowStoreApi } from '../react/use-flow-store-api';
import { useEditorServices, useEditorUi, type ContextMenuTarget } from './editor-context';
import { Palette } from './palette';
import { freeSpotAfter } from './placement';
import { freePlacementAt, measuredSizes } from './use-canvas-handlers';
import s from './editor.module.css';

/** A box fixed at a screen point that closes on Escape or a press outside it. */
export function Floating({ x, y, onClose, label, role, testId, children }: { x: number; y: number; onClose(): void; label: string; role: string; testId: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const down = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) onClose();
    };
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    document.addEventListener('pointerdown', down, true);
    document.addEventListener('keydown', key);
    return () => {
      document.removeEventListener('pointerdown', down, true);
      document.removeEventListener('keydown', key);
    };
  }, [onClose]);
  // Keep the box on screen.
  const left = Math.max(8, Math.min(x, (globalThis.innerWidth || 1200) - 280));
  const top = Math.max(8, Math.min(y, (globalThis.innerHeight || 800) - 120));
  return (
    <div ref={ref} className={s.floating} style={{ left, top }} role={role} aria-label={label} data-testid={testId}>
      {children}
    </div>
  );
}

/** The palette opened by a handle's "+": the chosen node is added after that node and connected. */
export function AddFromPopover() {
  const { t } = useTranslation('editor');
  const store = useFlowStoreApi();
  const { manager, ui } = useEditorServices();
  const target = useEditorUi((u) => u.addFrom);
  const mode = useFlowStore((st) => st.document.mode);
  const flow = useReactFlow();
  if (!target) return null;
  const close = () => ui.setState({ addFrom: null });
  const pick = (kind: string) => {
    close();
    const sizes = measuredSizes(flow.getNodes());
    if (target.edge) {
      // The edge's "+": into the edge, in free space near its middle.
      const at = { x: target.edge.at.x - 120, y: target.edge.at.y - 30 };
      void manager.execute('addNode', { kind, ...freePlacementAt(store, kind, at, sizes), intoEdge: target.edge.id });
      return;
    }
    const position = freeSpotAfter(store.getState().document, target.nodeId, sizes);
    void manager.execute('addNode', { kind, from: { nodeId: target.nodeId, handleId: target.handleId }, ...(position ? { position } : {}) });
  };
  return (
    <Floating x={target.x} y={target.y} onClose={close} role="dialog" label={t('node.addNext')} testId="add-from-popover">
      <Palette registry={store.registry} mode={mode} onPick={pick} autoFocus testId="add-from" />
    </Floating>
  );
}

interface MenuItem {
  id: string;
  label: string;
  shortcut?: string;
  disabled: boolean;
  run(): void;
}

/** The pane's and a node's context menus: commands with their translated labels and shortcuts. */
export function ContextMenu({ canLayout }: { canLayout: boolean }) {
  const { t } = useTranslation(['editor', 'canvas']);
  const { manager, ui } = useEditorServices();
  const menu = useEditorUi((u) => u.menu);
  // Re-render on store changes so enabled states are fresh while the menu is open.
  useFlowStore((st) => st.view.selection);
  const readOnly = useFlowStore((st) => st.readOnly);
  if (!menu) return null;
  const close = () => ui.setState({ menu: null });
  const items = menuItems(menu, canLayout).map((entry): MenuItem => {
    if (entry.id === 'addNodeHere') {
      return { id: entry.id, label: t('menu.addNodeHere'), disabled: readOnly, run: () => ui.setState({ paletteOpen: true, paletteAt: menu.at }) };
    }
    const cmd = manager.get(entry.id);
    const sc = cmd?.shortcut;
    const first = typeof sc === 'string' ? sc : sc?.[0];
    return {
      id: entry.id,
      label: cmd ? t(`canvas:${cmd.labelKey}` as never) : entry.id,
      shortcut: first ? formatShortcut(first, manager.isMac) : undefined,
      disabled: !manager.isEnabled(entry.id, entry.args),
      run: () => void manager.execute(entry.id, entry.args),
    };
  });
  return (
    <Floating x={menu.x} y={menu.y} onClose={close} role="menu" label={t(menu.kind === 'pane' ? 'menu.pane' : 'menu.node')} testId={`${menu.kind}-menu`}>
      {items.map((item) => (
          <button
            key={item.id}
            type="button"
            role="menuitem"
            className={s.menuItem}
            disabled={item.disabled}
            data-testid={`menu-${item.id}`}
            onClick={() => {
              close();
              item.run();
            }}
          >
            <span>{item.label}</span>
            {item.shortcut && <kbd>{item.shortcut}</kbd>}
          </button>
      ))}
    </Floating>
  );
}

function menuItems(menu: ContextMenuTarget, canLayout: boolean): { id: string; args?: unknown }[] {
  if (menu.kind === 'node') {
    return [{ id: 'copy' }, { id: 'cut' }, { id: 'duplicate' }, { id: 'deleteSelection' }, { id: 'moveOutOfContainer' }, { id: 'undo' }, { id: 'redo' }];
  }
  return [{ id: 'addNodeHere' }, { id: 'paste', args: { at: menu.at } }, { id: 'selectAll' }, { id: 'undo' }, { id: 'redo' }, ...(canLayout ? [{ id: 'layout' }] : [])];
}
