/**
 * What a route tells the shell about itself through react-router's `handle`: its page title (an i18n
 * key of the `pages` namespace) and its breadcrumb step. The layouts read them with {@link useCrumbs}
 * and {@link usePageTitle}; the skeleton page shows the title.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches, type UIMatch } from 'react-router';
import { create } from 'zustand';
import { tDynamic } from '../../i18n';

/** A breadcrumb step. `label` is shown as is; `labelKey` is translated (a `pages:` key). */
export interface Crumb {
  label?: string;
  labelKey?: string;
  /** Interpolation values for `labelKey`. */
  values?: Record<string, unknown>;
  href?: string;
  /**
   * A name the page learns once it has loaded its record (a tool's, a knowledge base's): when the page
   * has named this slot ({@link useCrumbName}) the step shows that name (and its link) instead.
   */
  slot?: string;
  /** With `slot`: leave the step out until the page has named it. */
  optional?: boolean;
}

/** The names pages gave their breadcrumb slots (see {@link Crumb.slot}). */
const useSlots = create<{ slots: Record<string, { label: string; href?: string }> }>(() => ({ slots: {} }));

/**
 * Names a breadcrumb slot while the page is shown (issue 28: the breadcrumb says which tool, which
 * knowledge base, and links back to it). Nothing while `name` is empty (still loading).
 * @example useCrumbName('tool', tool && { label: tool.name, href: toolPath })
 */
export function useCrumbName(slot: string, name: { label: string; href?: string } | null | undefined | false): void {
  const label = name ? name.label : '';
  const href = name ? name.href : undefined;
  useEffect(() => {
    if (!label) return;
    useSlots.setState((st) => ({ slots: { ...st.slots, [slot]: { label, href } } }));
    return () =>
      useSlots.setState((st) => {
        const { [slot]: _gone, ...rest } = st.slots;
        return { slots: rest };
      });
  }, [slot, label, href]);
}

export interface RouteHandle {
  /** Key in the `pages` namespace, e.g. 'workspace.tool'; the page heading and the document title. */
  title?: string;
  /**
   * The breadcrumb step: `true` = the title, linking to this route; a function for a dynamic label
   * (a loaded name, an id). Routes without `crumb` add no step.
   */
  crumb?: true | ((match: UIMatch<unknown, RouteHandle>) => Crumb | Crumb[] | null);
  /** Which area of the product the route belongs to (platform switcher, back buttons). */
  area?: Area;
}

export type Area = 'console' | 'system' | 'store' | 'portal' | 'personal';

type Match = UIMatch<unknown, RouteHandle | undefined>;

/** The breadcrumb steps of the current route, outermost first. */
export function crumbsOf(matches: Match[]): Crumb[] {
  const out: Crumb[] = [];
  for (const m of matches) {
    const spec = m.handle?.crumb;
    if (!spec) continue;
    if (spec === true) {
      if (m.handle?.title) out.push({ labelKey: `pages:${m.handle.title}`, href: m.pathname });
      continue;
    }
    const c = spec(m as UIMatch<unknown, RouteHandle>);
    if (Array.isArray(c)) out.push(...c);
    else if (c) out.push(c);
  }
  return out;
}

/** Translated label of a crumb. */
export function crumbLabel(c: Crumb): string {
  return c.labelKey ? tDynamic(c.labelKey, c.values) : (c.label ?? '');
}

/** The current route's breadcrumb, translated (re-renders on a language switch and when a page names a slot). */
export function useCrumbs(): { label: string; href?: string }[] {
  useTranslation();
  const matches = useMatches() as Match[];
  const slots = useSlots((st) => st.slots);
  const out: { label: string; href?: string }[] = [];
  for (const c of crumbsOf(matches)) {
    const named = c.slot ? slots[c.slot] : undefined;
    if (named) out.push({ label: named.label, href: named.href ?? c.href });
    else if (!c.optional) out.push({ label: crumbLabel(c), href: c.href });
  }
  return out;
}

/** The deepest route's title key (in `pages`), if any. */
export function titleKeyOf(matches: Match[]): string | undefined {
  for (let i = matches.length - 1; i >= 0; i--) {
    const title = matches[i].handle?.title;
    if (title) return title;
  }
  return undefined;
}

/** The deepest route's area. */
export function areaOf(matches: Match[]): Area | undefined {
  for (let i = matches.length - 1; i >= 0; i--) {
    const area = matches[i].handle?.area;
    if (area) return area;
  }
  return undefined;
}

/** The current page's translated title ('' when the route has none). */
export function usePageTitle(): string {
  useTranslation();
  const key = titleKeyOf(useMatches() as Match[]);
  return key ? tDynamic(`pages:${key}`) : '';
}

export function useArea(): Area | undefined {
  return areaOf(useMatches() as Match[]);
}
