import type { PickerOrg } from '../../../../schemas/org';

export interface FlatOrg {
  org: PickerOrg;
  depth: number;
  isRoot: boolean;
}

/**
 * The tree as rows in display order (depth-first), skipping the children of `collapsed` organisations.
 * A top-level organisation (no parent) is the tenant's root.
 */
export function flattenOrgs(tree: PickerOrg[], collapsed: ReadonlySet<string> = new Set()): FlatOrg[] {
  const out: FlatOrg[] = [];
  const walk = (org: PickerOrg, depth: number) => {
    out.push({ org, depth, isRoot: org.parentId === null });
    if (!collapsed.has(org.id)) for (const c of org.children) walk(c, depth + 1);
  };
  for (const r of tree) walk(r, 0);
  return out;
}

/** Every organisation of the tree by id. */
export function indexOrgs(tree: PickerOrg[]): Map<string, PickerOrg> {
  const map = new Map<string, PickerOrg>();
  for (const { org } of flattenOrgs(tree)) map.set(org.id, org);
  return map;
}

/** Whether the server would let the organisation go: no users and no sub-organisations. */
export const isEmptyOrg = (org: PickerOrg) => org.hasOrgNum === 0 && org.hasEmpNum === 0 && org.children.length === 0;
