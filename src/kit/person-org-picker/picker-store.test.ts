import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryPickerSource, demoId, demoPickerSeed } from './memory-source';
import { PickerStore, type PickerStoreOptions } from './picker-store';
import { ROOT_ORG_ID } from './types';

const ORG = { root: demoId('org', 1), eng: demoId('org', 2), platform: demoId('org', 3), frontend: demoId('org', 4), product: demoId('org', 5), support: demoId('org', 9) };
const USER = { alice: demoId('user', 1), bob: demoId('user', 2), frank: demoId('user', 6), olivia: demoId('user', 13) };

async function setup(opts: Partial<PickerStoreOptions> = {}) {
  const source = createMemoryPickerSource(demoPickerSeed());
  const store = new PickerStore({ source, ...opts });
  store.start();
  await vi.advanceTimersByTimeAsync(0);
  return { source, store, snap: () => store.getSnapshot() };
}

const count = (source: ReturnType<typeof createMemoryPickerSource>, method: string) => source.calls.filter((c) => c.method === method).length;

describe('PickerStore', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('loads the top lazily and opens a single root', async () => {
    const { snap, source } = await setup();
    expect(snap().rows.map((r) => r.key)).toEqual([
      `o:${ORG.root}`,
      `o:${ORG.eng}`,
      `o:${ORG.product}`,
      `o:${demoId('org', 6)}`,
      `o:${ORG.support}`,
      `o:${demoId('org', 10)}`,
      `u:${ORG.root}:${USER.olivia}`,
    ]);
    // Only the root's children were asked for, not the whole tree.
    expect(source.calls.map((c) => c.method)).toEqual(['roots', 'children']);
  });

  it('checks every user of an organisation (loading them) and marks it all; unchecking one makes it half', async () => {
    const { store, snap } = await setup();
    await store.toggleOrg(ORG.eng);
    await vi.advanceTimersByTimeAsync(100);
    expect(snap().selected.map((i) => i.id)).toHaveLength(7);
    expect(snap().orgStates.get(ORG.eng)).toBe('all');
    expect(snap().orgStates.get(ORG.root)).toBe('half');
    store.toggleUser(USER.alice);
    await vi.advanceTimersByTimeAsync(100);
    expect(snap().orgStates.get(ORG.eng)).toBe('half');
    // 'half' → check again → all; 'all' → uncheck → none.
    await store.toggleOrg(ORG.eng);
    await vi.advanceTimersByTimeAsync(100);
    expect(snap().orgStates.get(ORG.eng)).toBe('all');
    await store.toggleOrg(ORG.eng);
    await vi.advanceTimersByTimeAsync(100);
    expect(snap().orgStates.get(ORG.eng)).toBe('none');
    // Frank is also in Product: unchecking Engineering took him out of the selection too.
    expect(snap().selected).toEqual([]);
  });

  it('counts locally once an organisation is fully loaded', async () => {
    const { store, snap } = await setup();
    store.expand(ORG.eng);
    await vi.advanceTimersByTimeAsync(0);
    store.expand(ORG.platform);
    store.expand(ORG.frontend);
    await vi.advanceTimersByTimeAsync(0);
    store.toggleUser(USER.alice);
    expect(snap().orgStates.get(ORG.platform)).toBe('half');
    store.toggleUser(USER.bob);
    store.toggleUser(demoId('user', 3));
    expect(snap().orgStates.get(ORG.platform)).toBe('all');
    expect(snap().orgStates.get(ORG.eng)).toBe('half');
  });

  it('confirms organisations not fully loaded with users-ensure-status, batched in 50 ms', async () => {
    const { store, snap, source } = await setup({ disabledIds: [USER.frank] });
    // Frank is an existing member nobody has loaded yet: his place is unknown to the picker.
    await vi.advanceTimersByTimeAsync(10);
    expect(count(source, 'ensureStatus')).toBe(0);
    await vi.advanceTimersByTimeAsync(50);
    expect(count(source, 'ensureStatus')).toBe(1);
    const [entries] = source.calls.find((c) => c.method === 'ensureStatus')!.args as [{ orgId: string; userIds: string[] }[]];
    // One call for every organisation on screen; never the all-zero root.
    expect(entries.map((e) => e.orgId)).toEqual(expect.arrayContaining([ORG.root, ORG.eng, ORG.product]));
    expect(entries.map((e) => e.orgId)).not.toContain(ROOT_ORG_ID);
    expect(snap().orgStates.get(ORG.eng)).toBe('half');
    expect(snap().orgStates.get(ORG.product)).toBe('half');
    expect(snap().orgStates.get(ORG.support)).toBe('none');
    // Two quick changes → one more call, not two.
    store.toggleUser(USER.olivia);
    store.toggleUser(USER.olivia);
    store.toggleUser(USER.olivia);
    await vi.advanceTimersByTimeAsync(60);
    expect(count(source, 'ensureStatus')).toBe(2);
  });

  it('shows disabled ids checked, keeps them out of the value and out of reach', async () => {
    const { store, snap } = await setup({ disabledIds: [USER.olivia] });
    expect(store.isChecked(USER.olivia)).toBe(true);
    expect(store.isDisabled(USER.olivia)).toBe(true);
    store.toggleUser(USER.olivia);
    expect(snap().selected).toEqual([]);
    await store.setValue([USER.olivia, USER.alice]);
    expect(store.value()).toEqual([USER.alice]);
  });

  it('resolves initial ids with users-by-ids and ignores the all-zero root', async () => {
    const { store, snap, source } = await setup();
    await store.setValue([USER.alice, ROOT_ORG_ID, USER.bob]);
    expect(snap().selected.map((i) => i.kind === 'user' && i.user.name)).toEqual(['Alice Chen', 'Bob Wang']);
    expect(source.calls.find((c) => c.method === 'usersByIds')?.args).toEqual([[USER.alice, USER.bob]]);
  });

  it('debounces the search by 500 ms and shows matches instead of the tree', async () => {
    const { store, snap, source } = await setup();
    store.setQuery('a');
    await vi.advanceTimersByTimeAsync(300);
    store.setQuery('ali');
    await vi.advanceTimersByTimeAsync(499);
    expect(count(source, 'search')).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(count(source, 'search')).toBe(1);
    expect(source.calls.find((c) => c.method === 'search')?.args).toEqual(['ali', 1, 80]);
    expect(snap().search?.userIds).toContain(USER.alice);
    store.setQuery('  ');
    expect(snap().search).toBeNull();
  });

  it('pages users 80 at a time', async () => {
    const { store, snap } = await setup();
    store.expand(ORG.support);
    await vi.advanceTimersByTimeAsync(0);
    const more = () => snap().rows.find((r) => r.kind === 'more');
    expect(more()).toMatchObject({ remaining: 120 });
    store.loadMore(ORG.support);
    await vi.advanceTimersByTimeAsync(0);
    expect(more()).toMatchObject({ remaining: 40 });
    store.loadMore(ORG.support);
    await vi.advanceTimersByTimeAsync(0);
    expect(more()).toBeUndefined();
    expect(snap().rows.filter((r) => r.kind === 'user' && r.orgId === ORG.support)).toHaveLength(200);
  });

  it('single mode keeps one person; no organisation checkboxes', async () => {
    const { store, snap } = await setup({ mode: 'single' });
    await store.setValue([USER.alice]);
    await store.setValue([USER.alice]);
    store.toggleUser(USER.olivia);
    expect(store.value()).toEqual([USER.olivia]);
    expect(store.orgsCheckable).toBe(false);
    await store.toggleOrg(ORG.eng);
    expect(store.value()).toEqual([USER.olivia]);
    expect(snap().rows.some((r) => r.kind === 'user')).toBe(true);
  });

  it('organisation mode picks organisations; a parent of a picked one is half', async () => {
    const { store, snap } = await setup({ selectType: 'org' });
    expect(snap().rows.some((r) => r.kind === 'user')).toBe(false);
    store.expand(ORG.eng);
    await vi.advanceTimersByTimeAsync(0);
    await store.toggleOrg(ORG.platform);
    expect(store.value()).toEqual([ORG.platform]);
    expect(snap().orgStates.get(ORG.platform)).toBe('all');
    expect(snap().orgStates.get(ORG.eng)).toBe('half');
    expect(snap().orgStates.get(ORG.product)).toBe('none');
  });

  it('drops late answers after stop()', async () => {
    const source = createMemoryPickerSource(demoPickerSeed(), { latencyMs: 100 });
    const store = new PickerStore({ source });
    store.start();
    store.stop();
    store.start();
    await vi.advanceTimersByTimeAsync(300);
    expect(store.getSnapshot().rows.length).toBeGreaterThan(1);
    expect(store.getSnapshot().rootsLoading).toBe(false);
  });
});
