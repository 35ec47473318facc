import { useEffect, useState, type ComponentType, type SVGProps } from 'react';
import type { NodeIcon as NodeIconSpec } from '../../plugin-sdk';

/**
 * Node kind icons. Plugins name a lucide icon in kebab-case; importing all of lucide would put
 * ~1,900 icons in the editor's chunk, so each icon is loaded on demand through lucide's own
 * per-icon dynamic imports (one tiny chunk each) and cached here. `preloadNodeIcons` warms the
 * cache for a registry's kinds when an editor opens, so nodes usually paint with their icon.
 */

type IconComponent = ComponentType<SVGProps<SVGSVGElement> & { size?: number | string }>;

const loaded = new Map<string, IconComponent | null>();
const pending = new Map<string, Promise<IconComponent | null>>();
let importsTable: Promise<Record<string, () => Promise<{ default: IconComponent }>>> | undefined;

// The table of import functions is itself a separate chunk (it lists every icon name).
const table = () => (importsTable ??= import('lucide-react/dynamic').then((m) => m.dynamicIconImports as unknown as Record<string, () => Promise<{ default: IconComponent }>>));

/** Loads one lucide icon by name (null when lucide has no such icon). */
export function loadLucideIcon(name: string): Promise<IconComponent | null> {
  if (loaded.has(name)) return Promise.resolve(loaded.get(name)!);
  let p = pending.get(name);
  if (!p) {
    p = table()
      .then((t) => (t[name] ? t[name]().then((m) => m.default) : null))
      .catch(() => null)
      .then((icon) => {
        loaded.set(name, icon);
        pending.delete(name);
        return icon;
      });
    pending.set(name, p);
  }
  return p;
}

/** Starts loading the icons of these kinds (fire and forget). */
export function preloadNodeIcons(icons: Iterable<NodeIconSpec>): Promise<unknown> {
  const names = [...icons].flatMap((i) => ('lucide' in i ? [i.lucide] : []));
  return Promise.all(names.map(loadLucideIcon));
}

export interface NodeIconProps {
  icon: NodeIconSpec;
  size?: number;
  className?: string;
}

/** A node kind's icon: a lucide icon by name, or the plugin's inline SVG (as an image, never as markup). */
export function NodeIcon({ icon, size = 16, className }: NodeIconProps) {
  const name = 'lucide' in icon ? icon.lucide : undefined;
  const [, setTick] = useState(0);
  const Icon = name ? loaded.get(name) : undefined;
  useEffect(() => {
    if (!name || loaded.has(name)) return;
    let live = true;
    void loadLucideIcon(name).then(() => live && setTick((n) => n + 1));
    return () => {
      live = false;
    };
  }, [name]);
  if ('svg' in icon) {
    return <img className={className} src={`data:image/svg+xml;utf8,${encodeURIComponent(icon.svg)}`} width={size} height={size} alt="" aria-hidden="true" />;
  }
  if (!Icon) return <span className={className} style={{ display: 'inline-block', width: size, height: size }} aria-hidden="true" />;
  return <Icon className={className} width={size} height={size} aria-hidden="true" />;
}
