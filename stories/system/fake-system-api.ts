/**
 * In-memory stand-in for the system screens' calls (src/app/system/users/system-api.tsx), so the stories
 * run without a server. It follows the server's rules that the screens rely on (paging, filters, the
 * default tenant, empty-only organisation delete, unique names).
 */
import type { CurrentUser, SystemRole } from '../../schemas/auth';
import { DEFAULT_TENANT_ID } from '../../schemas/common';
import type { PickerOrg } from '../../schemas/org';
import type { Tenant } from '../../schemas/tenant';
import type { AdminUser } from '../../schemas/user';
import { NetworkPolicyBody, type NetworkPolicy } from '../../schemas/network-policy';
import { ApiError } from '../../src/api/request';
import type { Page, SystemApi } from '../../src/app/system/users/system-api';
import { permissionRules } from '../../src/server/security/system-permission-rules';

export const ACME_TENANT_ID = '6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e2f';

interface OrgRow {
  id: string;
  tenantId: string;
  parentId: string | null;
  name: string;
}

export interface FakeOptions {
  /** Every call waits this long (ms). Default 150. */
  delayMs?: number;
  /** List calls never answer (the loading state). */
  hang?: boolean;
  /** List calls fail (the error state). */
  fail?: boolean;
  /** No users besides the signed-in admin… none at all when 'none'. */
  users?: 'many' | 'none';
  /** Who calls (the role rules of getRoles and assignRole). Default the super admin. */
  as?: CurrentUser;
}

const uuid = () => crypto.randomUUID();
const at = (daysAgo: number, hour = 9) => new Date(Date.UTC(2025, 2, 20 - daysAgo, hour, 30)).toISOString();

const baseUser = (over: Partial<AdminUser> & Pick<AdminUser, 'id' | 'username'>): AdminUser => ({
  tenant_id: DEFAULT_TENANT_ID,
  nickname: '',
  realName: '',
  email: '',
  phone: '',
  avatar: '',
  serial_number: '',
  role: 'user',
  status: 1,
  created_at: at(30),
  updated_at: at(30),
  orgs: [],
  ...over,
});

export const SUPER_ADMIN_ID = '11111111-1111-4111-8111-111111111111';
export const TENANT_ADMIN_ID = '22222222-2222-4222-8222-222222222222';

export const superAdmin: CurrentUser = {
  id: SUPER_ADMIN_ID,
  tenant_id: DEFAULT_TENANT_ID,
  tenant_name: 'Headquarters',
  username: 'admin',
  nickname: '',
  realName: 'Administrator',
  email: 'admin@example.com',
  phone: '',
  avatar: '',
  role: 'super_admin',
  status: 1,
};

export const tenantAdmin: CurrentUser = { ...superAdmin, id: TENANT_ADMIN_ID, username: 'alice', realName: 'Alice Chen', role: 'tenant_admin' };

const fail = (msg: string, code = 'VALIDATION-1000', status = 400) => new ApiError({ status, code, msg });

export function createFakeSystemApi(options: FakeOptions = {}): SystemApi {
  const delay = options.delayMs ?? 150;
  const signedIn = options.as ?? superAdmin;
  const wait = <T>(value: () => T, isList = false): Promise<T> => {
    if (isList && options.hang) return new Promise(() => {});
    return new Promise((resolve, reject) =>
      setTimeout(() => {
        if (isList && options.fail) reject(fail('', 'SYSTEM-1500', 500));
        else {
          try {
            resolve(value());
          } catch (e) {
            reject(e);
          }
        }
      }, delay),
    );
  };

  const tenants: Tenant[] = [
    { id: DEFAULT_TENANT_ID, name: 'Headquarters', status: 1, is_default: true, created_at: at(60), updated_at: at(60), created_by: 'system', updated_by: 'system' },
    { id: ACME_TENANT_ID, name: 'Acme', status: 1, is_default: false, created_at: at(20), updated_at: at(5), created_by: 'admin', updated_by: 'admin' },
    { id: uuid(), name: 'Globex', status: 0, is_default: false, created_at: at(10), updated_at: at(2), created_by: 'admin', updated_by: 'admin' },
  ];

  const orgs: OrgRow[] = [];
  const addOrg = (tenantId: string, parentId: string | null, name: string) => {
    const row = { id: uuid(), tenantId, parentId, name };
    orgs.push(row);
    return row;
  };
  const rootOf = (tenantId: string) => orgs.find((o) => o.tenantId === tenantId && o.parentId === null)!;
  for (const t of tenants) addOrg(t.id, null, t.name);
  const eng = addOrg(DEFAULT_TENANT_ID, rootOf(DEFAULT_TENANT_ID).id, 'Engineering');
  const platform = addOrg(DEFAULT_TENANT_ID, eng.id, 'Platform');
  addOrg(DEFAULT_TENANT_ID, eng.id, 'Data');
  const sales = addOrg(DEFAULT_TENANT_ID, rootOf(DEFAULT_TENANT_ID).id, 'Sales');
  addOrg(ACME_TENANT_ID, rootOf(ACME_TENANT_ID).id, 'Operations');

  /** user id → org ids, master first */
  const links = new Map<string, string[]>();
  const users: AdminUser[] = [];
  const addUser = (u: AdminUser, orgIds: string[]) => {
    users.push(u);
    links.set(u.id, orgIds.length ? orgIds : [rootOf(u.tenant_id).id]);
  };
  if (options.users !== 'none') {
    addUser(baseUser({ id: SUPER_ADMIN_ID, username: 'admin', realName: 'Administrator', email: 'admin@example.com', role: 'super_admin', created_at: at(60) }), []);
    addUser(
      baseUser({ id: TENANT_ADMIN_ID, username: 'alice', realName: 'Alice Chen', nickname: 'Ali', email: 'alice@example.com', phone: '13800000001', role: 'tenant_admin', created_at: at(40) }),
      [eng.id],
    );
    addUser(baseUser({ id: uuid(), username: 'bob', realName: 'Bob Li', email: 'bob@example.com', phone: '13800000002', created_at: at(20) }), [platform.id, sales.id]);
    addUser(baseUser({ id: uuid(), username: 'carol', realName: 'Carol Wu', nickname: 'CW', status: 0, created_at: at(15) }), [sales.id]);
    if (options.users === 'many') {
      for (let i = 1; i <= 22; i++) {
        addUser(baseUser({ id: uuid(), username: `user${String(i).padStart(2, '0')}`, realName: `测试用户 ${i}`, created_at: at(14 - (i % 14), 8 + (i % 10)) }), [
          i % 2 ? platform.id : sales.id,
        ]);
      }
    }
    addUser(baseUser({ id: uuid(), tenant_id: ACME_TENANT_ID, username: 'acme-admin', role: 'tenant_admin', created_at: at(19) }), []);
  }

  const orgView = (userId: string): AdminUser['orgs'] => {
    const index = new Map(orgs.map((o) => [o.id, o]));
    const path = (o: OrgRow): string => (o.parentId ? `${path(index.get(o.parentId)!)}/${o.name}` : o.name);
    return (links.get(userId) ?? []).map((id, i) => ({ id, name: index.get(id)!.name, treeNames: path(index.get(id)!), isMaster: i === 0 }));
  };
  const view = (u: AdminUser): AdminUser => ({ ...u, orgs: orgView(u.id) });

  const tree = (tenantId: string): PickerOrg[] => {
    const build = (o: OrgRow, parentIds: string[], names: string[]): PickerOrg => {
      const kids = orgs.filter((c) => c.parentId === o.id);
      const children = kids.map((c) => build(c, [...parentIds, o.id], [...names, o.name]));
      const under = new Set<string>();
      const collect = (id: string) => {
        for (const [uid, ids] of links) if (ids.includes(id)) under.add(uid);
        for (const c of orgs.filter((x) => x.parentId === id)) collect(c.id);
      };
      collect(o.id);
      return {
        id: o.id,
        name: o.name,
        treeNames: [...names, o.name].join('/'),
        parentId: o.parentId,
        parentIds,
        hasEmpNum: under.size,
        hasOrgNum: kids.length,
        children,
        empList: [],
      };
    };
    const root = orgs.find((o) => o.tenantId === tenantId && o.parentId === null);
    return root ? [build(root, [], [])] : [];
  };

  const nodeOf = (o: OrgRow): PickerOrg => {
    const find = (list: PickerOrg[]): PickerOrg | undefined => {
      for (const n of list) {
        if (n.id === o.id) return n;
        const hit = find(n.children);
        if (hit) return hit;
      }
      return undefined;
    };
    return find(tree(o.tenantId))!;
  };

  const pageOf = <T>(rows: T[], page = 1, size = 20): Page<T> => ({
    items: rows.slice((page - 1) * size, page * size),
    total: rows.length,
    page,
    page_size: size,
  });

  const userById = (id: string) => {
    const u = users.find((x) => x.id === id);
    if (!u) throw fail('User does not exist');
    return u;
  };
  const tenantById = (id: string) => {
    const t = tenants.find((x) => x.id === id);
    if (!t) throw fail('Tenant does not exist');
    return t;
  };
  const now = () => new Date().toISOString();

  // The outbound policy: environment lists as an operator might set them, and a stored entry.
  let policy: NetworkPolicy = {
    env: { allow: ['127.0.0.1:11434', '10.20.0.0/16'], mcp_stdio_commands: ['/opt/mcp/bin/files-server'], allow_private: false },
    stored: { allow: ['db.corp.local:1521'], mcp_stdio_commands: [] },
    updated_at: at(2),
    updated_by: 'admin',
  };

  return {
    getNetworkPolicy: () => wait(() => structuredClone(policy)),
    saveNetworkPolicy: (b) =>
      wait(() => {
        // The server's own check: VALIDATION-1000 with the field of each wrong entry.
        const parsed = NetworkPolicyBody.safeParse(b);
        if (!parsed.success) {
          const data = parsed.error.issues.map((i) => ({ path: `body/${i.path.join('/')}`, message: i.message }));
          throw new ApiError({ status: 400, code: 'VALIDATION-1000', msg: `Parameter error: ${data.map((d) => `${d.path} ${d.message}`).join('; ')}`, data });
        }
        policy = { ...policy, stored: parsed.data, updated_at: now(), updated_by: 'admin' };
        return structuredClone(policy);
      }),
    listUsers: (q) =>
      wait(() => {
        const tenantId = q.tenant_id ?? DEFAULT_TENANT_ID;
        const name = q.name?.toLowerCase();
        const rows = users
          .filter((u) => u.tenant_id === tenantId)
          .filter((u) => !name || [u.username, u.realName, u.nickname].some((v) => v.toLowerCase().includes(name)))
          .filter((u) => q.status === undefined || u.status === q.status)
          .filter((u) => q.role === undefined || u.role === q.role)
          .sort((a, b) => b.created_at.localeCompare(a.created_at))
          .map(view);
        return pageOf(rows, q.page, q.page_size);
      }, true),
    createUser: (b) =>
      wait(() => {
        const tenantId = b.tenant_id ?? DEFAULT_TENANT_ID;
        if (users.some((u) => u.tenant_id === tenantId && u.username === b.username)) throw fail(`The username '${b.username}' already exists`, 'VALIDATION-1001');
        const u = baseUser({
          id: uuid(),
          tenant_id: tenantId,
          username: b.username,
          realName: b.realName ?? '',
          nickname: b.nickname ?? '',
          email: b.email ?? '',
          phone: b.phone ?? '',
          role: (b.role ?? 'user') as SystemRole,
          created_at: now(),
          updated_at: now(),
        });
        addUser(u, b.org_ids ?? []);
        return view(u);
      }),
    updateUser: (id, b) =>
      wait(() => {
        const u = userById(id);
        Object.assign(u, Object.fromEntries(Object.entries(b).filter(([k, v]) => v !== undefined && k !== 'org_ids')), { updated_at: now() });
        if (b.org_ids) links.set(id, b.org_ids.length ? b.org_ids : [rootOf(u.tenant_id).id]);
        return view(u);
      }),
    setUserStatus: (id, status) =>
      wait(() => {
        if (id === SUPER_ADMIN_ID && status === 0) throw fail('You cannot disable yourself');
        const u = userById(id);
        u.status = status;
        return view(u);
      }),
    setUserPassword: (id) =>
      wait(() => {
        userById(id);
        return null;
      }),
    // The server's own rules (the same table its guards read); holders counted here.
    getRoles: (q) =>
      wait(() => {
        const tenantId = q.tenant_id ?? DEFAULT_TENANT_ID;
        const rules = permissionRules();
        const roles: SystemRole[] = ['super_admin', 'tenant_admin', 'user'];
        return {
          tenant_id: tenantId,
          roles: roles.map((role) => ({
            role,
            holders: users.filter((u) => u.tenant_id === tenantId && u.role === role).length,
            permissions: rules.filter((r) => r.roles.includes(role)).map((r) => r.key),
          })),
          permissions: rules,
          assignable: roles.filter((r) => r !== 'super_admin' || signedIn.role === 'super_admin'),
        };
      }),
    assignRole: (id, role) =>
      wait(() => {
        const u = userById(id);
        if (role === 'super_admin' && signedIn.role !== 'super_admin') throw fail('Only a super admin may grant the super admin role', 'PERMISSION-1000', 403);
        if (id === signedIn.id && role !== u.role) throw fail('You cannot change your own role');
        u.role = role;
        u.updated_at = now();
        return view(u);
      }),
    listTenants: (q) =>
      wait(() => {
        const name = q.name?.toLowerCase();
        return pageOf(
          tenants.filter((t) => !name || t.name.toLowerCase().includes(name)),
          q.page,
          q.page_size,
        );
      }, true),
    createTenant: (b) =>
      wait(() => {
        if (tenants.some((t) => t.name.toLowerCase() === b.name.toLowerCase())) throw fail(`A tenant named '${b.name}' already exists`, 'VALIDATION-1001');
        const t: Tenant = { id: uuid(), name: b.name, status: 1, is_default: false, created_at: now(), updated_at: now(), created_by: 'admin', updated_by: 'admin' };
        tenants.push(t);
        addOrg(t.id, null, t.name);
        addUser(baseUser({ id: uuid(), tenant_id: t.id, username: b.admin_username, role: 'tenant_admin', created_at: now() }), []);
        return t;
      }),
    updateTenant: (id, b) =>
      wait(() => {
        const t = tenantById(id);
        Object.assign(t, { name: b.name, updated_at: now(), updated_by: 'admin' });
        rootOf(id).name = b.name;
        return t;
      }),
    setTenantStatus: (id, status) =>
      wait(() => {
        const t = tenantById(id);
        if (status === 0 && t.is_default) throw fail('The default tenant cannot be disabled');
        Object.assign(t, { status, updated_at: now(), updated_by: 'admin' });
        return t;
      }),
    orgTree: (q) => wait(() => tree(q.tenant_id ?? DEFAULT_TENANT_ID), true),
    createOrg: (b) =>
      wait(() => {
        const parent = b.parentId ? orgs.find((o) => o.id === b.parentId) : rootOf(b.tenant_id ?? DEFAULT_TENANT_ID);
        if (!parent) throw fail('Organisation does not exist');
        if (orgs.some((o) => o.parentId === parent.id && o.name.toLowerCase() === b.name.trim().toLowerCase())) {
          throw fail(`An organisation named '${b.name}' already exists here`, 'VALIDATION-1001');
        }
        const row = addOrg(parent.tenantId, parent.id, b.name.trim());
        return nodeOf(row);
      }),
    renameOrg: (id, b) =>
      wait(() => {
        const o = orgs.find((x) => x.id === id);
        if (!o) throw fail('Organisation does not exist');
        o.name = b.name.trim();
        return nodeOf(o);
      }),
    deleteOrg: (id) =>
      wait(() => {
        const o = orgs.find((x) => x.id === id);
        if (!o) throw fail('Organisation does not exist');
        if (o.parentId === null) throw fail('The root organisation cannot be deleted');
        if (orgs.some((x) => x.parentId === id)) throw fail('The organisation still has sub-organisations');
        if ([...links.values()].some((ids) => ids.includes(id))) throw fail('The organisation still has users');
        orgs.splice(orgs.indexOf(o), 1);
        return null;
      }),
  };
}
