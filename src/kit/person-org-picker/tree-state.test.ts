import { describe, expect, it } from 'vitest';
import {
  bareOrg,
  bothTriState,
  cleanIds,
  cleanUser,
  flattenTree,
  loadedUsersUnder,
  newEntry,
  orgTriState,
  relevantUserIds,
  stripRoot,
  userTriState,
  type OrgEntry,
} from './tree-state';
import { ROOT_ORG_ID, type PickerOrg, type PickerUser } from './types';

const org = (id: string, extra: Partial<PickerOrg> = {}): PickerOrg => ({
  id,
  name: id,
  treeNames: id,
  parentId: null,
  parentIds: [],
  hasEmpNum: 0,
  hasOrgNum: 0,
  children: [],
  empList: [],
  ...extra,
});

const user = (id: string, parentIdList: string[]): PickerUser => ({
  id,
  name: id,
  realName: id,
  username: id,
  avatar: '',
  orgs: [],
  parentIdList,
  isMultiOrg: false,
  masterOrgTreeName: '',
});

const entry = (id: string, extra: Partial<OrgEntry> = {}): OrgEntry => ({ ...newEntry(id, null, 0), ...extra });

describe('the all-zero root organisation is ignored', () => {
  it('replaces it by its children at the top', () => {
    const tree = [org(ROOT_ORG_ID, { children: [org('a'), org('b', { children: [org('b1')] })] }), org('c')];
    expect(stripRoot(tree).map((o) => o.id)).toEqual(['a', 'b', 'c']);
  });

  it('drops it from ids, parent lists and user paths', () => {
    expect(cleanIds([ROOT_ORG_ID, 'a', 'a', 'b'])).toEqual(['a', 'b']);
    expect(bareOrg(org('a', { parentIds: [ROOT_ORG_ID, 'p'], children: [org('x')] }))).toMatchObject({ parentIds: ['p'], children: [] });
    expect(cleanUser(user('u', [ROOT_ORG_ID, 'a'])).parentIdList).toEqual(['a']);
  });

  it('never has a tri-state of its own', () => {
    const r = userTriState({ org: { id: ROOT_ORG_ID, hasEmpNum: 5 }, checked: new Set(['u']), known: new Map(), loadedUnder: null });
    expect(r).toEqual({ state: 'none', needsConfirm: false });
  });
});

describe('userTriState (people picked)', () => {
  const known = new Map([
    ['u1', user('u1', ['root', 'a'])],
    ['u2', user('u2', ['root', 'a'])],
    ['u3', user('u3', ['root', 'b'])],
  ]);

  it('is none for an organisation without people, whatever is checked', () => {
    expect(userTriState({ org: { id: 'a', hasEmpNum: 0 }, checked: new Set(['u1']), known, loadedUnder: null }).state).toBe('none');
  });

  it('counts exactly when every user under the organisation is loaded', () => {
    const loadedUnder = new Set(['u1', 'u2']);
    const base = { org: { id: 'a', hasEmpNum: 2 }, known, loadedUnder };
    expect(userTriState({ ...base, checked: new Set() })).toEqual({ state: 'none', needsConfirm: false });
    expect(userTriState({ ...base, checked: new Set(['u1']) })).toEqual({ state: 'half', needsConfirm: false });
    expect(userTriState({ ...base, checked: new Set(['u1', 'u2', 'u3']) })).toEqual({ state: 'all', needsConfirm: false });
  });

  it('estimates from known paths and asks the server when not everything is loaded', () => {
    const base = { org: { id: 'root', hasEmpNum: 3 }, known, loadedUnder: null };
    expect(userTriState({ ...base, checked: new Set() })).toEqual({ state: 'none', needsConfirm: false });
    expect(userTriState({ ...base, checked: new Set(['u1']) })).toEqual({ state: 'half', needsConfirm: true });
    expect(userTriState({ ...base, checked: new Set(['u1', 'u2', 'u3']) })).toEqual({ state: 'all', needsConfirm: true });
    // A checked id of unknown place (e.g. an existing member never loaded) also needs the server.
    expect(userTriState({ ...base, checked: new Set(['stranger']) })).toEqual({ state: 'none', needsConfirm: true });
  });

  it("takes the server's answer for the current selection over the estimate", () => {
    const r = userTriState({ org: { id: 'b', hasEmpNum: 1 }, checked: new Set(['stranger']), known, loadedUnder: null, confirmed: 'all' });
    expect(r).toEqual({ state: 'all', needsConfirm: false });
  });

  it('sends only the ids under the organisation or of unknown place', () => {
    expect(relevantUserIds('a', ['u1', 'u3', 'stranger'], known)).toEqual(['u1', 'stranger']);
  });
});

describe('orgTriState and bothTriState', () => {
  const chosen = [org('b1', { parentIds: ['root', 'b'] })];
  const isChosen = (id: string) => id === 'b1';

  it('is all for a chosen organisation, half above one, none elsewhere', () => {
    expect(orgTriState('b1', chosen, isChosen)).toBe('all');
    expect(orgTriState('b', chosen, isChosen)).toBe('half');
    expect(orgTriState('root', chosen, isChosen)).toBe('half');
    expect(orgTriState('a', chosen, isChosen)).toBe('none');
  });

  it('combines the organisation and its people when both are picked', () => {
    expect(bothTriState('all', 'none')).toBe('all');
    expect(bothTriState('none', 'all')).toBe('half');
    expect(bothTriState('none', 'half')).toBe('half');
    expect(bothTriState('half', 'none')).toBe('half');
    expect(bothTriState('none', 'none')).toBe('none');
  });
});

describe('the tree', () => {
  const entries = new Map<string, OrgEntry>([
    ['r', entry('r', { childIds: ['a', 'b'], userIds: ['u0'], userTotal: 1, page: 1 })],
    ['a', entry('a', { parent: 'r', depth: 1, childIds: [], userIds: ['u1', 'u2'], userTotal: 3, page: 1 })],
    ['b', entry('b', { parent: 'r', depth: 1 })],
  ]);
  const orgs = new Map([
    ['r', org('r', { hasEmpNum: 4, hasOrgNum: 2 })],
    ['a', org('a', { hasEmpNum: 3 })],
    ['b', org('b', { hasEmpNum: 0, hasOrgNum: 0 })],
  ]);

  it('lists sub-organisations, then people, then "load more"', () => {
    const rows = flattenTree({ rootIds: ['r'], entries, orgs, expanded: new Set(['r', 'a']) }, true);
    expect(rows.map((r) => r.key)).toEqual(['o:r', 'o:a', 'u:a:u1', 'u:a:u2', 'm:a', 'o:b', 'u:r:u0']);
    expect(rows.find((r) => r.kind === 'more')).toMatchObject({ remaining: 1, depth: 2 });
    expect(rows.find((r) => r.key === 'o:b')).toMatchObject({ expandable: false });
  });

  it('hides people when only organisations are picked', () => {
    const rows = flattenTree({ rootIds: ['r'], entries, orgs, expanded: new Set(['r', 'a']) }, false);
    expect(rows.map((r) => r.key)).toEqual(['o:r', 'o:a', 'o:b']);
  });

  it('shows a loading row under an open organisation whose children are not in yet', () => {
    const rows = flattenTree({ rootIds: ['r'], entries, orgs, expanded: new Set(['r', 'b']) }, true);
    expect(rows.map((r) => r.key)).toContain('l:b');
  });

  it('knows all users under an organisation only when every page and sub-organisation is loaded', () => {
    expect(loadedUsersUnder(entries, 'a')).toBeNull();
    const full = new Map(entries);
    full.set('a', { ...entries.get('a')!, userIds: ['u1', 'u2', 'u3'] });
    expect(loadedUsersUnder(full, 'a')).toEqual(new Set(['u1', 'u2', 'u3']));
    expect(loadedUsersUnder(full, 'r')).toBeNull(); // b is not loaded
    full.set('b', { ...entries.get('b')!, childIds: [], userTotal: 0, page: 1 });
    expect(loadedUsersUnder(full, 'r')).toEqual(new Set(['u0', 'u1', 'u2', 'u3']));
  });
});
