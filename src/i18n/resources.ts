/**
 * Translation resources. Every file `locales/<lng>/<namespace>.ts` is picked up at build time (one plain
 * object as default export; the English file is typed `typeof zh`, so keys cannot drift). The app
 * loads them lazily through ./loaders.ts; the eager `resources` below are for tests and checks only
 * (importing them from app code would put every text into the first load).
 *
 * Adding a namespace = write `locales/zh/<ns>.ts` and `locales/en/<ns>.ts`, then add ONE line to
 * {@link Namespaces} below (that line types `t('<ns>:key')`; the files themselves load automatically).
 *
 * @example
 * // locales/zh/workspace.ts
 * export default { title: '项目空间' };
 * // locales/en/workspace.ts
 * import type zh from '../zh/workspace';
 * export default { title: 'Project spaces' } satisfies typeof zh;
 * // here:
 * //   workspace: typeof import('./locales/zh/workspace').default;
 * // in a component:
 * const { t } = useTranslation('workspace'); t('title'); // or t('workspace:title') from any namespace
 */
import { defaultNamespace, languages, type Language } from './loaders';

export type Namespaces = {
  common: typeof import('./locales/zh/common').default;
  errors: typeof import('./locales/zh/errors').default;
  kit: typeof import('./locales/zh/kit').default;
  member: typeof import('./locales/zh/member').default;
  picker: typeof import('./locales/zh/picker').default;
  param: typeof import('./locales/zh/param').default;
  system: typeof import('./locales/zh/system').default;
  roles: typeof import('./locales/zh/roles').default;
  mine: typeof import('./locales/zh/mine').default;
  shell: typeof import('./locales/zh/shell').default;
  auth: typeof import('./locales/zh/auth').default;
  workspace: typeof import('./locales/zh/workspace').default;
  pages: typeof import('./locales/zh/pages').default;
  credential: typeof import('./locales/zh/credential').default;
  database: typeof import('./locales/zh/database').default;
  prompt: typeof import('./locales/zh/prompt').default;
  apps: typeof import('./locales/zh/apps').default;
  distribution: typeof import('./locales/zh/distribution').default;
  canvas: typeof import('./locales/zh/canvas').default;
  dsl: typeof import('./locales/zh/dsl').default;
  inspector: typeof import('./locales/zh/inspector').default;
  editor: typeof import('./locales/zh/editor').default;
  models: typeof import('./locales/zh/models').default;
  tools: typeof import('./locales/zh/tools').default;
  knowledge: typeof import('./locales/zh/knowledge').default;
  debug: typeof import('./locales/zh/debug').default;
  runlog: typeof import('./locales/zh/runlog').default;
  flowtools: typeof import('./locales/zh/flowtools').default;
  features: typeof import('./locales/zh/features').default;
  appversion: typeof import('./locales/zh/appversion').default;
  store: typeof import('./locales/zh/store').default;
  appapi: typeof import('./locales/zh/appapi').default;
  overview: typeof import('./locales/zh/overview').default;
  builder: typeof import('./locales/zh/builder').default;
  portal: typeof import('./locales/zh/portal').default;
  approval: typeof import('./locales/zh/approval').default;
  digitalHuman: typeof import('./locales/zh/digitalHuman').default;
};

export { defaultNamespace, languages, type Language };

// The default namespace must be one of the namespaces.
const _defaultIsANamespace: keyof Namespaces = defaultNamespace;
void _defaultIsANamespace;

type Messages = Record<string, unknown>;

const modules = import.meta.glob<{ default: Messages }>(['./locales/*/*.ts', '!./locales/**/*.test.ts'], {
  eager: true,
});

function collect(): Record<Language, Namespaces> {
  const out = { zh: {}, en: {} } as Record<Language, Record<string, Messages>>;
  for (const [file, mod] of Object.entries(modules)) {
    const m = /\.\/locales\/([^/]+)\/([^/]+)\.ts$/.exec(file);
    if (!m) continue;
    const [, lng, ns] = m;
    if (lng in out) out[lng as Language][ns] = mod.default;
  }
  return out as unknown as Record<Language, Namespaces>;
}

/** `{ zh: { common, errors, … }, en: { … } }`, every text eagerly (tests and checks). */
export const resources = collect();

/** Every namespace found on disk (Chinese is the reference). */
export const namespaces = Object.keys(resources.zh) as (keyof Namespaces)[];

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: typeof defaultNamespace;
    resources: Namespaces;
  }
}
