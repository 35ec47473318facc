import { describe, expect, it, vi } from 'vitest';
import { FlowDocument } from '../../schemas/flow';
import { CLIPBOARD_TYPE, copyPayload, createClipboard, parsePayload, preparePaste, serializePayload } from './clipboard';
import { pastePayload } from './commands';
import { flow, makeStore, node, registry, sampleFlow } from './plugins.fixture';

describe('copy payload', () => {
  it('holds the nodes, the inside of copied containers and the edges between them, never start', () => {
    const payload = copyPayload(sampleFlow(), registry, ['start', 'a', 'b', 'loop'])!;
    expect(payload.type).toBe(CLIPBOARD_TYPE);
    expect(payload.nodes.map((n) => n.id)).toEqual(['a', 'b', 'loop', 'loop-start', 'inner']);
    expect(payload.edges.map((e) => [e.source, e.target])).toEqual([
      ['a', 'b'],
      ['loop-start', 'inner'],
    ]);
    expect(copyPayload(sampleFlow(), registry, ['start'])).toBeUndefined();
  });

  it('gives a node copied out of its container an absolute position and no parent', () => {
    const payload = copyPayload(sampleFlow(), registry, ['inner'])!;
    expect(payload.nodes[0]).toMatchObject({ id: 'inner', position: { x: 1200, y: 460 } });
    expect(payload.nodes[0].parentId).toBeUndefined();
  });

  it('round-trips through text and ignores other text', () => {
    const payload = copyPayload(sampleFlow(), registry, ['a'])!;
    expect(parsePayload(serializePayload(payload))).toEqual(payload);
    expect(parsePayload('hello')).toBeUndefined();
    expect(parsePayload(`{"type":"${CLIPBOARD_TYPE}","nodes":"x"}`)).toBeUndefined();
    expect(parsePayload(undefined)).toBeUndefined();
  });
});

describe('paste', () => {
  it('gives new ids and rewrites selector and {{#…#}} references to pasted nodes only', () => {
    const payload = copyPayload(sampleFlow(), registry, ['a', 'b'])!;
    const { nodes, edges, idMap } = preparePaste(sampleFlow(), registry, payload);
    expect(Object.fromEntries(idMap)).toEqual({ a: 'echo_1', b: 'echo_2' });
    const b2 = nodes.find((n) => n.id === 'echo_2')!;
    expect(b2.config).toMatchObject({ text: 'hi {{#echo_1.text#}}', source: ['echo_1', 'text'] });
    expect(b2.position).toEqual({ x: 640, y: 40 });
    expect(edges).toEqual([expect.objectContaining({ source: 'echo_1', target: 'echo_2', id: 'echo_1-source-echo_2-target' })]);

    // Copying b alone keeps its references to the original a.
    const alone = preparePaste(sampleFlow(), registry, copyPayload(sampleFlow(), registry, ['b'])!);
    expect(alone.nodes[0].config).toMatchObject({ text: 'hi {{#a.text#}}', source: ['a', 'text'] });
  });

  it('pastes a container with its inside remapped, at a given point, into a valid document', () => {
    const store = makeStore();
    const payload = copyPayload(store.toDocument(), registry, ['loop'])!;
    const pasted = pastePayload(store, payload, { at: { x: 0, y: 2000 } });
    const doc = store.toDocument();
    expect(() => FlowDocument.parse(doc)).not.toThrow();
    const loop2 = doc.nodes.find((n) => n.id === pasted.idMap.get('loop'))!;
    expect(loop2.position).toEqual({ x: 0, y: 2000 });
    const inside = doc.nodes.filter((n) => n.parentId === loop2.id).map((n) => n.kind);
    expect(inside).toEqual(['repeat-start', 'echo']);
    expect(store.getState().view.selection.nodes).toHaveLength(3);
    store.undo();
    expect(store.toDocument()).toEqual(sampleFlow());
  });

  it('pastes into another app: skips kinds of other modes and a second start', () => {
    const chat = flow({ mode: 'chatflow', nodes: [node('start', 'start'), node('r', 'reply', { config: { input: ['sys', 'query'], text: '{{#r.text#}}' } })] });
    const payload = copyPayload(chat, registry, ['r'])!;
    const notify = vi.fn();
    const store = makeStore();
    const result = pastePayload(store, payload, {}, { notify });
    expect(result.nodes).toEqual([]);
    expect(result.skipped).toEqual(['r']);
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ key: 'notices.pasteSkipped', params: { count: 1 } }));

    const chatStore = makeStore({ mode: 'chatflow', document: chat });
    const again = pastePayload(chatStore, payload);
    expect(again.nodes[0].config).toEqual({ input: ['sys', 'query'], text: '{{#reply_1.text#}}' });
    const withStart = { ...payload, nodes: [...payload.nodes, node('start', 'start')] };
    expect(preparePaste(chat, registry, withStart).skipped).toEqual(['start']);
  });

  it('pastes into a container relative to it', () => {
    const store = makeStore();
    const payload = copyPayload(store.toDocument(), registry, ['a'])!;
    const r = pastePayload(store, payload, { at: { x: 1100, y: 500 }, parentId: 'loop' });
    expect(store.toDocument().nodes.find((n) => n.id === r.nodes[0].id)).toMatchObject({ parentId: 'loop', position: { x: 100, y: 100 } });
  });
});

describe('clipboard adapter', () => {
  it('uses the system clipboard when it works', async () => {
    let text = '';
    const system = { writeText: vi.fn(async (t: string) => void (text = t)), readText: vi.fn(async () => text) };
    const clip = createClipboard(system);
    await clip.write('nodes');
    expect(system.writeText).toHaveBeenCalledWith('nodes');
    text = 'something else';
    expect(await clip.read()).toBe('something else');
  });

  it('falls back to memory when the browser refuses', async () => {
    const denied = async () => {
      throw new DOMException('denied', 'NotAllowedError');
    };
    const clip = createClipboard({ writeText: denied, readText: denied });
    await clip.write('nodes');
    expect(await clip.read()).toBe('nodes');
    const none = createClipboard(null);
    await none.write('x');
    expect(await none.read()).toBe('x');
  });
});
