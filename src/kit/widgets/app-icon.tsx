/**
 * The icon of an app, tool or workspace: the uploaded image, or the preset icon on its colour. Apart
 * from the picker (./icon-picker.tsx, which re-exports it) so that screens that only show icons (the
 * portal) do not load the picker's popover and upload code.
 */
import { BookOpen, Bot, Database, FileText, Globe, MessageSquare, Sparkles, Workflow, Wrench, type LucideIcon } from 'lucide-react';
import { cn } from '../../ui/cn';
import { DEFAULT_ICON, iconColors, type IconName, type IconValue } from './icon-presets';
import s from './app-icon.module.css';

/** The lucide icon of each preset name. */
export const ICONS: Record<IconName, LucideIcon> = {
  bot: Bot,
  sparkles: Sparkles,
  'message-square': MessageSquare,
  'book-open': BookOpen,
  workflow: Workflow,
  wrench: Wrench,
  database: Database,
  'file-text': FileText,
  globe: Globe,
};

export interface AppIconProps {
  value: IconValue | null | undefined;
  /** Square size in px. Default 40. */
  size?: number;
  /** Alt text of an image. */
  name?: string;
  className?: string;
}

/**
 * An app, tool or workspace icon: the uploaded image, or the preset icon on its colour.
 * @example <AppIcon value={{ icon: 'bot', iconColor: '#E0E7FF' }} size={32} />
 */
export function AppIcon({ value, size = 40, name = '', className }: AppIconProps) {
  const v = value ?? DEFAULT_ICON;
  const style = { width: size, height: size, borderRadius: Math.round(size / 4) };
  if (v.iconPath) return <img data-slot="app-icon" src={v.iconPath} alt={name} className={cn(s.icon, className)} style={style} />;
  const Icon = ICONS[(v.icon as IconName) ?? 'bot'] ?? Bot;
  const colors = iconColors(v.iconColor);
  return (
    <span data-slot="app-icon" className={cn(s.icon, className)} style={{ ...style, ...colors }} role={name ? 'img' : undefined} aria-label={name || undefined}>
      <Icon aria-hidden="true" style={{ width: size * 0.55, height: size * 0.55 }} />
    </span>
  );
}
