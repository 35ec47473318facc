import { describe, expect, it } from 'vitest';
import type { Patch } from 'immer';
import { makeStore } from '../plugins.fixture';
import { compactPatches, DEFAULT_HISTORY_LIMIT, FlowHistory } from './history';

const replace = (path: (string | number)[], value: unknown): Patch => ({ op: 'replace', path, value });

describe('FlowHistory merge rules', () => {
  it('merges edits with the same key within the window and seals after it', () => {
    let now = 0;
    const h = new FlowHistory({ now: () => now, mergeWindowMs: 1000 });
    h.record([replace(['x'], 'a')], [replace(['x'], '')], 'n1:text');
    now = 400;
    h.record([replace(['x'], 'ab')], [replace(['x'], 'a')], 'n1:text');
    now = 1300; // 900 ms after the last keystroke: still the same step
    h.record([replace(['x'], 'abc')], [replace(['x'], 'ab')], 'n1:text');
    expect(h.size).toBe(1);
    now = 2400; // 1.1 s of silence: a new step
    h.record([replace(['x'], 'abcd')], [replace(['x'], 'abc')], 'n1:text');
    expect(h.size).toBe(2);
    const first = h.undo()!;
    expect(first.inverse).toEqual([replace(['x'], 'abc')]);
    const second = h.undo()!;
    // The merged step keeps one patch each way: the last value forward, the first value back.
    expect(second.patches).toEqual([replace(['x'], 'abc')]);
    expect(second.inverse).toEqual([replace(['x'], '')]);
  });

  it('does not merge across another field, another action, undo or seal', () => {
    const h = new FlowHistory({ now: () => 0 });
    h.record([replace(['a'], 1)], [replace(['a'], 0)], 'n1:a');
    h.record([replace(['b'], 1)], [replace(['b'], 0)], 'n1:b');
    h.record([replace(['a'], 2)], [replace(['a'], 1)], 'n1:a');
    expect(h.size).toBe(3);
    h.record([replace(['c'], 1)], [replace(['c'], 0)]);
    h.record([replace(['a'], 3)], [replace(['a'], 2)], 'n1:a');
    expect(h.size).toBe(5);
    h.seal();
    h.record([replace(['a'], 4)], [replace(['a'], 3)], 'n1:a');
    expect(h.size).toBe(6);
    h.undo();
    h.redo();
    h.record([replace(['a'], 5)], [replace(['a'], 4)], 'n1:a');
    expect(h.size).toBe(7);
  });

  it('groups a gesture into one step and clears redo on a new edit', () => {
    const h = new FlowHistory();
    h.record([replace(['y'], 1)], [replace(['y'], 0)]);
    h.undo();
    expect(h.canRedo).toBe(true);
    h.begin();
    for (let i = 1; i <= 50; i++) h.record([replace(['pos', 'x'], i)], [replace(['pos', 'x'], i - 1)]);
    h.end();
    expect(h.canRedo).toBe(false);
    expect(h.size).toBe(1);
    const step = h.undo()!;
    expect(step.patches).toEqual([replace(['pos', 'x'], 50)]);
    expect(step.inverse).toEqual([replace(['pos', 'x'], 0)]);
  });

  it('keeps at most `limit` steps (default 200)', () => {
    expect(new FlowHistory().limit).toBe(DEFAULT_HISTORY_LIMIT);
    const h = new FlowHistory({ limit: 120 });
    for (let i = 0; i < 150; i++) h.record([replace(['v'], i + 1)], [replace(['v'], i)]);
    expect(h.size).toBe(120);
  });

  it('compacts only replace-only lists, keeping the last write per path in order', () => {
    const list = [replace(['a'], 1), replace(['b'], 1), replace(['a'], 2)];
    expect(compactPatches(list)).toEqual([replace(['b'], 1), replace(['a'], 2)]);
    const mixed: Patch[] = [{ op: 'add', path: ['nodes', 3], value: {} }, replace(['a'], 1), replace(['a'], 2)];
    expect(compactPatches(mixed)).toBe(mixed);
  });
});

describe('store history', () => {
  it('merges typing in one config field into one step per field', () => {
    let now = 0;
    const store = makeStore({ history: { now: () => now } });
    for (const [i, text] of ['H', 'He', 'Hel', 'Hell', 'Hello'].entries()) {
      now = i * 200;
      store.updateConfig('a', ['text'], text);
    }
    store.updateConfig('b', ['text'], 'other field');
    store.updateConfig('a', ['text'], 'Hello!');
    const config = (id: string) => store.getState().document.nodes.find((n) => n.id === id)!.config;
    expect(config('a').text).toBe('Hello!');
    store.undo();
    expect(config('a').text).toBe('Hello');
    store.undo();
    expect(config('b').text).toBe('hi {{#a.text#}}');
    store.undo();
    expect(config('a').text).toBe('');
    expect(store.getState().history.canUndo).toBe(false);
  });

  it('undoes 150 steps and redoes them all', () => {
    const store = makeStore();
    const original = store.toDocument();
    for (let i = 1; i <= 150; i++) store.moveNodes({ a: { x: i, y: i } });
    const last = store.toDocument();
    let undone = 0;
    while (store.undo()) undone++;
    expect(undone).toBe(150);
    expect(store.toDocument()).toEqual(original);
    while (store.redo());
    expect(store.toDocument()).toEqual(last);
  });

  it('records a drag once per gesture and can cancel it', () => {
    const store = makeStore();
    const before = store.toDocument();
    store.beginGesture();
    for (let x = 0; x < 30; x++) store.moveNodes({ a: { x, y: 5 }, b: { x: x + 300, y: 5 } });
    store.endGesture();
    store.undo();
    expect(store.toDocument()).toEqual(before);
    expect(store.getState().history.canUndo).toBe(false);

    store.beginGesture();
    store.moveNodes({ a: { x: 999, y: 999 } });
    store.cancelGesture();
    expect(store.toDocument()).toEqual(before);
  });

  it('makes a batch (multi-node delete) one step, and selection changes no step', () => {
    const store = makeStore();
    const before = store.toDocument();
    store.setSelection({ nodes: ['a', 'b'] });
    store.batch(() => {
      store.deleteNodes(['a']);
      store.deleteNodes(['b']);
    });
    expect(store.toDocument().nodes.map((n) => n.id)).not.toContain('a');
    expect(store.getState().view.selection.nodes).toEqual([]);
    store.setSelection({ nodes: ['end'] });
    expect(store.undo()).toBe(true);
    expect(store.toDocument()).toEqual(before);
    expect(store.undo()).toBe(false);
  });

  it('refuses edits and undo in a read-only editor', () => {
    const store = makeStore({ readOnly: true });
    store.moveNodes({ a: { x: 5, y: 5 } });
    expect(store.toDocument().nodes.find((n) => n.id === 'a')!.position).toEqual({ x: 300, y: 0 });
    expect(store.getState().history.canUndo).toBe(false);
    expect(store.connect({ source: 'a', target: 'end' })).toEqual({ ok: false, reason: 'readOnly' });
    expect(store.addNode('echo')).toBeUndefined();
    store.setReadOnly(false);
    expect(store.addNode('echo')).toBe('echo_1');
  });
});
