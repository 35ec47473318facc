import type { FlowStore } from '../store/create-flow-store';
import { isMacPlatform, isTypingTarget, keyTargetOf, matchShortcut } from './shortcuts';
import type { AnyCanvasCommand, CanvasCommand, CommandContext, KeyLike } from './types';

export interface CommandManagerOptions {
  store: FlowStore;
  commands: readonly AnyCanvasCommand[];
  /** The editor's services (the registry is taken from the store). */
  context: Omit<CommandContext, 'registry'>;
  /** Platform for `Mod` (default: detected from the browser). */
  isMac?: boolean;
}

/**
 * Runs editor commands: the one mechanism behind shortcuts, the context menu and the palette.
 * @example
 * const manager = createCommandManager({ store, commands: builtinCommands, context: { clipboard: createClipboard() } });
 * window.addEventListener('keydown', (e) => manager.handleKeyDown(e));
 * manager.execute('addNode', { kind: 'llm', position: { x: 100, y: 80 } });
 */
export interface CommandManager {
  readonly isMac: boolean;
  list(): readonly AnyCanvasCommand[];
  get(id: string): AnyCanvasCommand | undefined;
  /** Whether the command can run now (menus grey it out otherwise). */
  isEnabled(id: string, args?: unknown): boolean;
  /** Runs it if enabled; resolves to whether something happened. */
  execute(id: string, args?: unknown): Promise<boolean>;
  /** Commands the palette offers now, in order. */
  paletteCommands(): AnyCanvasCommand[];
  /**
   * Runs the command a key event is the shortcut of (and prevents the browser's default). Keys
   * typed in a field, or anything else that takes its own keys (`isTypingTarget`), never run a
   * command. Returns whether a command took the key.
   */
  handleKeyDown(event: KeyLike): boolean;
}

const shortcutsOf = (c: AnyCanvasCommand): readonly string[] => (c.shortcut === undefined ? [] : typeof c.shortcut === 'string' ? [c.shortcut] : c.shortcut);

export function createCommandManager(opts: CommandManagerOptions): CommandManager {
  const { store } = opts;
  const context: CommandContext = { ...opts.context, registry: store.registry };
  const isMac = opts.isMac ?? isMacPlatform();
  const byId = new Map<string, AnyCanvasCommand>();
  for (const c of opts.commands) {
    if (byId.has(c.id)) throw new Error(`Canvas command "${c.id}" is registered twice`);
    byId.set(c.id, c);
  }

  function enabled(c: AnyCanvasCommand, args: unknown): boolean {
    const state = store.getState();
    if (c.edits && state.readOnly) return false;
    try {
      return c.predicate ? c.predicate(state, args, context) : true;
    } catch {
      return false;
    }
  }

  async function run(c: AnyCanvasCommand, args: unknown): Promise<boolean> {
    if (!enabled(c, args)) return false;
    return Boolean(await c.perform(store, args, context));
  }

  const matches = (c: AnyCanvasCommand, event: KeyLike) =>
    c.keyTest ? c.keyTest(event, isMac) : shortcutsOf(c).some((s) => matchShortcut(s, event, isMac));

  return {
    isMac,
    list: () => [...byId.values()],
    get: (id) => byId.get(id),
    isEnabled: (id, args) => {
      const c = byId.get(id);
      return c ? enabled(c, args) : false;
    },
    execute(id, args) {
      const c = byId.get(id);
      return c ? run(c, args) : Promise.resolve(false);
    },
    paletteCommands: () => [...byId.values()].filter((c) => c.palette !== false && enabled(c, undefined)),
    handleKeyDown(event) {
      if (isTypingTarget(keyTargetOf(event))) return false;
      for (const c of byId.values()) {
        if (!matches(c, event) || !enabled(c, undefined)) continue;
        event.preventDefault?.();
        void run(c, undefined).catch((e: unknown) => context.notify?.({ key: 'notices.commandFailed', params: { message: String(e) }, severity: 'error' }));
        return true;
      }
      return false;
    },
  };
}

/** Typed helper for a command list entry (keeps `A` checked at the definition). */
export const defineCommand = <A = undefined>(command: CanvasCommand<A>): AnyCanvasCommand => command as AnyCanvasCommand;
