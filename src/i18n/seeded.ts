/**
 * The names the first start stores (src/server/services/seed.ts: the default tenant, its project
 * space and the administrator) are English data; the UI shows them in the user's language (issue 28).
 * Decided here rather than seeding per a server language: the server has no language of its own, one
 * install serves both languages, and a name the user changed is theirs and shown as typed.
 */
import { tDynamic } from './index';

/** Seeded value → key in the `common` namespace (keep in step with seed.ts). */
const SEEDED: Record<string, string> = {
  'Default project space': 'common:seeded.workspace',
  'Created on first start': 'common:seeded.workspaceDescription',
  'Default tenant': 'common:seeded.tenant',
  // Installs seeded before the admin was named by their username (seed.ts) keep this real name.
  Administrator: 'common:seeded.admin',
};

/**
 * A stored name as the user should read it: a seeded default in the current language, anything else
 * unchanged.
 * @example seededName(workspace.name) // '默认项目空间' in the Chinese UI
 */
export function seededName(name: string): string {
  const key = SEEDED[name];
  return key ? tDynamic(key) : name;
}

/**
 * An org path ('Default tenant/R&D/Web': the root org is named after its tenant) with a seeded root
 * shown in the current language.
 * @example seededPath(org.treeNames) // '默认租户/R&D/Web' in the Chinese UI
 */
export function seededPath(treeNames: string): string {
  const cut = treeNames.indexOf('/');
  return cut < 0 ? seededName(treeNames) : seededName(treeNames.slice(0, cut)) + treeNames.slice(cut);
}
