import { describe, expect, it, vi } from 'vitest';
import { copyPayload, createClipboard, serializePayload } from '../clipboard';
import { makeStore, sampleFlow } from '../plugins.fixture';
import { builtinCommands, createCommandManager, defineCommand, formatShortcut, isTypingTarget, keyTargetOf, matchShortcut, type KeyLike, type LayoutFunction } from './index';

const key = (k: string, mods: Partial<KeyLike> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  preventDefault: vi.fn<() => void>(),
  ...mods,
});

function setup(over: { layout?: LayoutFunction; readOnly?: boolean; isMac?: boolean } = {}) {
  const store = makeStore({ readOnly: over.readOnly });
  const clipboard = createClipboard(null);
  const notify = vi.fn();
  const manager = createCommandManager({ store, commands: builtinCommands, context: { clipboard, layout: over.layout, notify }, isMac: over.isMac ?? false });
  return { store, manager, clipboard, notify };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('shortcuts', () => {
  it('matches Mod as Ctrl or Cmd, with exact modifiers and by physical key', () => {
    expect(matchShortcut('Mod+Z', key('z', { ctrlKey: true }), false)).toBe(true);
    expect(matchShortcut('Mod+Z', key('z', { metaKey: true }), true)).toBe(true);
    expect(matchShortcut('Mod+Z', key('z', { metaKey: true }), false)).toBe(false);
    expect(matchShortcut('Mod+Z', key('Z', { ctrlKey: true, shiftKey: true }), false)).toBe(false);
    expect(matchShortcut('Mod+Shift+Z', key('Z', { ctrlKey: true, shiftKey: true }), false)).toBe(true);
    expect(matchShortcut('Mod+C', key('с', { ctrlKey: true, code: 'KeyC' }), false)).toBe(true);
    expect(matchShortcut('Delete', key('Delete'), false)).toBe(true);
    expect(formatShortcut('Mod+Shift+Z', true)).toBe('⌘⇧Z');
    expect(formatShortcut('Mod+Shift+Z', false)).toBe('Ctrl+Shift+Z');
  });

  it('runs undo and redo from keys and never while typing in a field', async () => {
    const { store, manager } = setup();
    store.moveNodes({ a: { x: 1, y: 1 } });
    const input = document.createElement('input');
    const typing = key('z', { ctrlKey: true, target: input });
    expect(manager.handleKeyDown(typing)).toBe(false);
    expect(typing.preventDefault).not.toHaveBeenCalled();
    const editable = document.createElement('div');
    editable.setAttribute('contenteditable', 'true');
    expect(manager.handleKeyDown(key('Delete', { target: editable }))).toBe(false);
    expect(store.getState().history.canUndo).toBe(true);

    const ev = key('z', { ctrlKey: true, target: document.body });
    expect(manager.handleKeyDown(ev)).toBe(true);
    expect(ev.preventDefault).toHaveBeenCalled();
    await flush();
    expect(store.toDocument()).toEqual(sampleFlow());
    expect(manager.handleKeyDown(key('y', { ctrlKey: true }))).toBe(true);
    await flush();
    expect(store.toDocument().nodes[1].position).toEqual({ x: 1, y: 1 });
    // Nothing to redo: the key falls through to the browser.
    expect(manager.handleKeyDown(key('y', { ctrlKey: true }))).toBe(false);
  });

  it('leaves every key to fields, widgets that use keys, popups and marked areas, and no other', () => {
    const el = (html: string) => {
      const host = document.createElement('div');
      host.innerHTML = html;
      document.body.append(host);
      return host.querySelector('[data-t]')!;
    };
    const owned = [
      '<input data-t>',
      '<input type="checkbox" data-t>',
      '<textarea data-t></textarea>',
      '<select data-t></select>',
      '<div contenteditable="plaintext-only"><span data-t>x</span></div>',
      // Monaco in Chrome: the focus is on a div that takes text through an EditContext.
      '<div class="monaco-editor"><div class="native-edit-context" data-t></div></div>',
      '<div class="native-edit-context" data-t></div>',
      '<button role="combobox" data-t>GET</button>',
      '<button role="switch" data-t></button>',
      '<button role="tab" data-t>Run</button>',
      '<div role="option" data-t>a</div>',
      '<button aria-haspopup="listbox" data-t>Choose</button>',
      '<div role="dialog"><button data-t>OK</button></div>',
      '<div data-radix-popper-content-wrapper><div><button data-t>x</button></div></div>',
      '<aside data-own-keys><button data-t>Close</button></aside>',
    ];
    for (const html of owned) expect([html, isTypingTarget(el(html))]).toEqual([html, true]);
    const canvas = ['<div role="group" tabindex="0" data-t></div>', '<button data-t>Undo</button>', '<div contenteditable="false" data-t></div>', '<div role="application"><div data-t></div></div>'];
    for (const html of canvas) expect([html, isTypingTarget(el(html))]).toEqual([html, false]);
    expect(isTypingTarget(document.body)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
    // A key event is judged by the element it was typed in, inside a shadow root too.
    const host = document.createElement('div');
    document.body.append(host);
    const inner = host.attachShadow({ mode: 'open' }).appendChild(document.createElement('input'));
    const typed = new KeyboardEvent('keydown', { key: ' ', bubbles: true, composed: true });
    let seen = false;
    document.addEventListener('keydown', (e) => void (seen = keyTargetOf(e) === inner), { once: true });
    inner.dispatchEvent(typed);
    expect(seen).toBe(true);
    expect(keyTargetOf({ target: host })).toBe(host);
  });

  it('refuses duplicate ids', () => {
    const store = makeStore();
    expect(() => createCommandManager({ store, commands: [...builtinCommands, builtinCommands[0]], context: { clipboard: createClipboard(null) } })).toThrow(/twice/);
  });
});

describe('built-in commands', () => {
  it('adds a node from the palette only for kinds of the mode', async () => {
    const { store, manager } = setup();
    expect(manager.isEnabled('addNode', { kind: 'reply' })).toBe(false);
    expect(manager.isEnabled('addNode', { kind: 'repeat-start' })).toBe(false);
    expect(await manager.execute('addNode', { kind: 'echo', from: { nodeId: 'b' } })).toBe(true);
    expect(store.toDocument().edges.some((e) => e.source === 'b' && e.target === 'echo_1')).toBe(true);
  });

  it('deletes the selection as one step but keeps start', async () => {
    const { store, manager } = setup();
    store.setSelection({ nodes: ['start'] });
    expect(manager.isEnabled('deleteSelection')).toBe(false);
    store.setSelection({ nodes: ['start', 'a', 'b'], edges: ['b-source-end-target'] });
    expect(await manager.execute('deleteSelection')).toBe(true);
    expect(store.toDocument().nodes.map((n) => n.id)).toEqual(['start', 'end', 'loop', 'loop-start', 'inner']);
    expect(await manager.execute('undo')).toBe(true);
    expect(store.toDocument()).toEqual(sampleFlow());
    expect(manager.isEnabled('undo')).toBe(false);
  });

  it('copies, cuts, pastes and duplicates with remapped ids', async () => {
    const { store, manager, clipboard } = setup();
    store.setSelection({ nodes: ['a', 'b'] });
    await manager.execute('copy');
    expect(await clipboard.read()).toContain('weft/flow-nodes');
    await manager.execute('paste', { at: { x: 0, y: 500 } });
    expect(store.getState().view.selection.nodes).toEqual(['echo_1', 'echo_2']);
    expect(store.toDocument().nodes.find((n) => n.id === 'echo_2')!.config.source).toEqual(['echo_1', 'text']);

    await manager.execute('duplicate');
    expect(store.getState().view.selection.nodes).toEqual(['echo_3', 'echo_4']);
    expect(store.toDocument().nodes.find((n) => n.id === 'echo_3')!.position).toEqual({ x: 40, y: 540 });

    store.setSelection({ nodes: ['inner'] });
    await manager.execute('duplicate');
    expect(store.toDocument().nodes.find((n) => n.id === 'echo_5')).toMatchObject({ parentId: 'loop', position: { x: 240, y: 100 } });

    // A paste event's text (no clipboard permission needed) wins over reading the clipboard.
    const other = copyPayload(store.toDocument(), store.registry, ['end'])!;
    await manager.execute('paste', { text: serializePayload(other), at: { x: 0, y: 900 } });
    expect(store.getState().view.selection.nodes).toEqual(['end_1']);
    expect(await manager.execute('paste', { text: 'plain text' })).toBe(false);

    store.setSelection({ nodes: ['b'] });
    await manager.execute('cut');
    expect(store.toDocument().nodes.some((n) => n.id === 'b')).toBe(false);
    await manager.execute('paste');
    // The pasted copy still refers to the original a, which is still there.
    expect(store.toDocument().nodes.find((n) => n.id === 'echo_6')!.config.source).toEqual(['a', 'text']);
  });

  it('selects all and moves nodes into and out of a container', async () => {
    const { store, manager, notify } = setup();
    await manager.execute('selectAll');
    expect(store.getState().view.selection.nodes).toHaveLength(7);
    store.setSelection({ nodes: ['a'] });
    expect(manager.isEnabled('moveOutOfContainer')).toBe(false);
    expect(await manager.execute('moveIntoContainer', { containerId: 'loop' })).toBe(true);
    expect(manager.isEnabled('moveOutOfContainer')).toBe(true);
    expect(await manager.execute('moveOutOfContainer')).toBe(true);
    expect(store.toDocument().nodes.find((n) => n.id === 'a')!.position).toEqual({ x: 300, y: 0 });
    expect(manager.isEnabled('moveIntoContainer', { containerId: 'b' })).toBe(false);
    const cmd = manager.get('moveIntoContainer')!;
    expect(await cmd.perform(store, { containerId: 'b' }, { clipboard: createClipboard(null), registry: store.registry, notify })).toBe(false);
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ key: 'move.notContainer' }));
  });

  it('lays out through the injected function as one undo step', async () => {
    const layout = vi.fn<LayoutFunction>(async (doc) => ({
      positions: Object.fromEntries(doc.nodes.map((n, i) => [n.id, { x: i * 10, y: 0 }])),
      sizes: { loop: { width: 700, height: 400 } },
    }));
    const { store, manager } = setup({ layout });
    expect(await manager.execute('layout')).toBe(true);
    expect(store.toDocument().nodes[2].position).toEqual({ x: 20, y: 0 });
    expect(store.toDocument().nodes[4]).toMatchObject({ width: 700, height: 400 });
    store.undo();
    expect(store.toDocument()).toEqual(sampleFlow());
    expect(setup().manager.isEnabled('layout')).toBe(false);
  });

  it('disables editing commands in a read-only editor but keeps copy', async () => {
    const { store, manager } = setup({ readOnly: true });
    store.setSelection({ nodes: ['a'] });
    expect(manager.isEnabled('deleteSelection')).toBe(false);
    expect(manager.isEnabled('paste')).toBe(false);
    expect(manager.isEnabled('copy')).toBe(true);
    expect(manager.paletteCommands().map((c) => c.id)).toEqual(['copy', 'selectAll']);
  });

  it('takes extra commands from the editor', async () => {
    const perform = vi.fn(() => true);
    const store = makeStore();
    const manager = createCommandManager({
      store,
      commands: [...builtinCommands, defineCommand({ id: 'hello', labelKey: 'commands.hello', category: 'edit', shortcut: 'Alt+H', perform })],
      context: { clipboard: createClipboard(null) },
      isMac: true,
    });
    expect(manager.handleKeyDown(key('h', { altKey: true }))).toBe(true);
    expect(perform).toHaveBeenCalled();
  });
});
