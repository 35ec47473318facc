import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../schemas/errors';
import type { FlowDocument } from '../../schemas/flow';
import { createFlowAutosave, defaultConflictOf } from './autosave';
import { makeStore, sampleFlow } from './plugins.fixture';

const APP = '7f0c3c52-58a4-4c4f-9a55-9d1e1f1b2a01';
const USER = '0b9e3a1e-2f7d-4f7a-8d55-2f3c1a9e4b02';

const conflictError = (revision: number) =>
  Object.assign(new Error('conflict'), {
    code: ErrorCode.CONFLICT,
    data: { app_id: APP, revision, updated_at: '2026-01-01T00:00:00.000Z', updated_by: { id: USER, name: 'Lin' } },
  });

function setup() {
  const store = makeStore();
  const saves: { doc: FlowDocument; base: number }[] = [];
  let server = { revision: 3, document: sampleFlow() };
  let refuse: ((base: number) => Error | undefined) | undefined;
  const save = vi.fn(async (doc: FlowDocument, base: number) => {
    saves.push({ doc, base });
    const err = refuse?.(base);
    if (err) throw err;
    server = { revision: server.revision + 1, document: doc };
    return { revision: server.revision };
  });
  const load = vi.fn(async () => server);
  const autosave = createFlowAutosave(store, { save, load, revision: 3 });
  return {
    store,
    autosave,
    saves,
    save,
    setServer: (s: typeof server) => (server = s),
    refuseWith: (f: typeof refuse) => (refuse = f),
  };
}

describe('autosave', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('tells its listeners only of changes: the edits of a drag after the first change nothing', async () => {
    const { store, autosave } = setup();
    const notices: ReturnType<typeof autosave.getSnapshot>[] = [];
    autosave.subscribe(() => notices.push(autosave.getSnapshot()));
    for (let i = 1; i <= 50; i++) store.moveNodes({ a: { x: i, y: i } });
    expect(notices).toEqual([{ status: 'saved', dirty: true, revision: 3 }]);
    const dirty = autosave.getSnapshot();
    store.moveNodes({ a: { x: 0, y: 0 } });
    expect(autosave.getSnapshot()).toBe(dirty);
    await vi.advanceTimersByTimeAsync(800);
    expect(notices.map((n) => [n.status, n.dirty])).toEqual([
      ['saved', true],
      ['saving', true],
      ['saved', false],
    ]);
  });

  it('saves once, 800 ms after the last change, based on the last revision', async () => {
    const { store, autosave, saves } = setup();
    store.moveNodes({ a: { x: 1, y: 1 } });
    await vi.advanceTimersByTimeAsync(500);
    store.moveNodes({ a: { x: 2, y: 2 } });
    expect(autosave.getSnapshot()).toMatchObject({ status: 'saved', dirty: true });
    await vi.advanceTimersByTimeAsync(799);
    expect(saves).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(saves).toHaveLength(1);
    expect(saves[0]).toMatchObject({ base: 3, doc: store.toDocument() });
    expect(autosave.getSnapshot()).toEqual({ status: 'saved', dirty: false, revision: 4, conflict: undefined, error: undefined });
    store.undo();
    await vi.advanceTimersByTimeAsync(800);
    expect(saves[1].base).toBe(4);
  });

  it('goes to failed and retries', async () => {
    const { store, autosave, saves, refuseWith } = setup();
    refuseWith(() => new Error('network down'));
    const statuses: string[] = [];
    autosave.subscribe(() => statuses.push(autosave.getSnapshot().status));
    store.moveNodes({ a: { x: 1, y: 1 } });
    await vi.advanceTimersByTimeAsync(800);
    expect(autosave.getSnapshot().status).toBe('failed');
    refuseWith(undefined);
    await autosave.retry();
    expect(autosave.getSnapshot()).toMatchObject({ status: 'saved', revision: 4, dirty: false });
    expect(saves).toHaveLength(2);
    expect(statuses).toEqual(['saved', 'saving', 'failed', 'saving', 'saved']);
  });

  it('stops on a conflict and reloads the stored draft', async () => {
    const { store, autosave, saves, refuseWith, setServer } = setup();
    const theirs = { ...sampleFlow(), notes: 'saved in another tab' };
    setServer({ revision: 7, document: theirs });
    refuseWith((base) => (base !== 7 ? conflictError(7) : undefined));
    store.moveNodes({ a: { x: 1, y: 1 } });
    await vi.advanceTimersByTimeAsync(800);
    expect(autosave.getSnapshot()).toMatchObject({ status: 'conflict', conflict: { revision: 7, updated_by: { name: 'Lin' } } });
    // Edits meanwhile are kept but not saved until the builder decides.
    store.moveNodes({ a: { x: 2, y: 2 } });
    await vi.advanceTimersByTimeAsync(5000);
    expect(saves).toHaveLength(1);
    await autosave.reload();
    expect(store.toDocument().notes).toBe('saved in another tab');
    expect(store.getState().history.canUndo).toBe(false);
    expect(autosave.getSnapshot()).toMatchObject({ status: 'saved', dirty: false, revision: 7 });
    await vi.advanceTimersByTimeAsync(2000);
    expect(saves).toHaveLength(1);
  });

  it("reloads a draft the server replaced (the editor's import) with no conflict: history starts anew, no save follows", async () => {
    const { store, autosave, saves, setServer } = setup();
    store.moveNodes({ a: { x: 1, y: 1 } });
    await autosave.flush();
    expect(saves).toHaveLength(1);
    setServer({ revision: 9, document: { ...sampleFlow(), notes: 'imported on the server' } });
    await autosave.reload();
    expect(store.toDocument().notes).toBe('imported on the server');
    expect(store.getState().history.canUndo).toBe(false);
    expect(autosave.getSnapshot()).toMatchObject({ status: 'saved', dirty: false, revision: 9 });
    store.moveNodes({ a: { x: 2, y: 2 } });
    await vi.advanceTimersByTimeAsync(800);
    expect(saves.map((s) => s.base)).toEqual([3, 9]);
  });

  it('overwrites on the stored revision when the builder keeps their version', async () => {
    const { store, autosave, saves, refuseWith } = setup();
    refuseWith((base) => (base !== 9 ? conflictError(9) : undefined));
    store.moveNodes({ a: { x: 1, y: 1 } });
    await vi.advanceTimersByTimeAsync(800);
    expect(autosave.getSnapshot().status).toBe('conflict');
    await autosave.overwrite();
    expect(saves.map((s) => s.base)).toEqual([3, 9]);
    expect(autosave.getSnapshot()).toMatchObject({ status: 'saved', conflict: undefined });
  });

  it('never saves twice at once: a change during a save is saved after it', async () => {
    const { store, autosave, save } = setup();
    let release!: () => void;
    save.mockImplementationOnce(async () => {
      await new Promise<void>((r) => (release = r));
      return { revision: 4 };
    });
    store.moveNodes({ a: { x: 1, y: 1 } });
    await vi.advanceTimersByTimeAsync(800);
    expect(autosave.getSnapshot().status).toBe('saving');
    store.moveNodes({ a: { x: 2, y: 2 } });
    await vi.advanceTimersByTimeAsync(800);
    expect(save).toHaveBeenCalledTimes(1);
    release();
    await vi.advanceTimersByTimeAsync(800);
    expect(save).toHaveBeenCalledTimes(2);
    expect(save.mock.calls[1][1]).toBe(4);
    expect(autosave.getSnapshot()).toMatchObject({ status: 'saved', dirty: false });
  });

  it('flushes at once and stops after dispose', async () => {
    const { store, autosave, saves } = setup();
    store.moveNodes({ a: { x: 1, y: 1 } });
    await autosave.flush();
    expect(saves).toHaveLength(1);
    autosave.dispose();
    store.moveNodes({ a: { x: 2, y: 2 } });
    await vi.advanceTimersByTimeAsync(2000);
    expect(saves).toHaveLength(1);
  });

  it('recognises only CONFLICT-1000 errors with conflict data', () => {
    expect(defaultConflictOf(conflictError(2))?.revision).toBe(2);
    expect(defaultConflictOf(new Error('x'))).toBeUndefined();
    expect(defaultConflictOf({ code: ErrorCode.CONFLICT, data: null })).toBeUndefined();
    expect(defaultConflictOf({ code: ErrorCode.CONFLICT, data: { revision: 5, app_id: 'not-a-uuid' } })).toBeUndefined();
    expect(defaultConflictOf({ code: ErrorCode.CONFLICT, data: { revision: 5 } })).toEqual({ revision: 5 });
  });
});
