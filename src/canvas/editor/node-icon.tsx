import {
  Anchor,
  BookOpenText,
  Bot,
  BrainCircuit,
  CirclePlay,
  CodeXml,
  Combine,
  FileCode2,
  FileText,
  Flag,
  GitBranch,
  Globe,
  House,
  ListFilter,
  ListTree,
  MessageCircle,
  MessageSquare,
  MessageSquareReply,
  PencilLine,
  Play,
  Plug,
  RefreshCw,
  Repeat,
  Repeat2,
  Split,
  StickyNote,
  WholeWord,
  Wrench,
} from 'lucide-react';
import { useEffect, useState, type ComponentType, type SVGProps } from 'react';
import type { NodeIcon as NodeIconSpec } from '../../plugin-sdk';

/**
 * Node kind icons. Plugins name a lucide icon in kebab-case. The built-in kinds' icons are a small
 * static map (in the editor's chunk, painted at once). Any other name (a third-party plugin's) loads
 * lucide's whole icon set as ONE lazily loaded chunk (`lucide-all.ts`) the first time it is needed;
 * lucide's per-icon dynamic imports would emit ~1,950 tiny chunks.
 */

type IconComponent = ComponentType<SVGProps<SVGSVGElement> & { size?: number | string }>;

/** The icons of the built-in kinds and the fixtures (kebab-case name → component). */
const STATIC_ICONS: Readonly<Record<string, IconComponent>> = {
  anchor: Anchor,
  'book-open-text': BookOpenText,
  bot: Bot,
  'brain-circuit': BrainCircuit,
  'circle-play': CirclePlay,
  'code-xml': CodeXml,
  combine: Combine,
  'file-code-2': FileCode2,
  'file-text': FileText,
  flag: Flag,
  'git-branch': GitBranch,
  globe: Globe,
  house: House,
  'list-filter': ListFilter,
  'list-tree': ListTree,
  'message-circle': MessageCircle,
  'message-square': MessageSquare,
  'message-square-reply': MessageSquareReply,
  'pencil-line': PencilLine,
  play: Play,
  plug: Plug,
  'refresh-cw': RefreshCw,
  repeat: Repeat,
  'repeat-2': Repeat2,
  split: Split,
  'sticky-note': StickyNote,
  'whole-word': WholeWord,
  wrench: Wrench,
};

/**
 * Whether an icon is in the static map. Every built-in kind's must be (node-icon.test.tsx): one
 * that is not made each open of the editor fetch and compile lucide's whole set (800 kB of script,
 * ~1.5 MB of code cache), on the main thread while the canvas opens.
 */
export const isStaticIcon = (name: string): boolean => Object.hasOwn(STATIC_ICONS, name);

const loaded = new Map<string, IconComponent | null>(Object.entries(STATIC_ICONS));
const pending = new Map<string, Promise<IconComponent | null>>();
let allIcons: Promise<Readonly<Record<string, IconComponent>>> | undefined;

/** lucide's exports are PascalCase, aliases included (`file-code-2` → `FileCode2`). */
const pascal = (name: string) => name.replace(/(^|-)([a-z0-9])/g, (_m, _d, c: string) => c.toUpperCase());

/** Loads one lucide icon by name (null when lucide has no such icon). */
export function loadLucideIcon(name: string): Promise<IconComponent | null> {
  if (loaded.has(name)) return Promise.resolve(loaded.get(name)!);
  let p = pending.get(name);
  if (!p) {
    allIcons ??= import('./lucide-all').then((m) => m as unknown as Record<string, IconComponent>);
    p = allIcons
      .then((icons) => icons[pascal(name)] ?? null)
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

/** Starts loading the icons of these kinds (fire and forget; built-in ones are already there). */
export function preloadNodeIcons(icons: Iterable<NodeIconSpec>): Promise<unknown> {
  const names = [...icons].flatMap((i) => ('lucide' in i && !loaded.has(i.lucide) ? [i.lucide] : []));
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
