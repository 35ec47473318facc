/**
 * The project-space icon: one of 9 default icons on one of 7 background colours (spec 9), stored in
 * the workspace's `icon` string as `<icon>:<colour>` (e.g. `rocket:green`). An image URL is shown as
 * the image; an empty or unknown value falls back to the initials of the name.
 */
import { BookOpen, Bot, Briefcase, Database, Folder, Globe, Lightbulb, Rocket, Sparkles, type LucideIcon } from 'lucide-react';
import { Avatar, type AvatarSize } from '../../ui/avatar';
import { cn } from '../../ui/cn';
import s from './workspace-icon.module.css';

export const WORKSPACE_ICONS = {
  folder: Folder,
  briefcase: Briefcase,
  rocket: Rocket,
  lightbulb: Lightbulb,
  bot: Bot,
  book: BookOpen,
  database: Database,
  globe: Globe,
  sparkles: Sparkles,
} as const satisfies Record<string, LucideIcon>;
export type WorkspaceIconName = keyof typeof WORKSPACE_ICONS;

export const WORKSPACE_COLORS = {
  indigo: '#4c6ef5',
  sky: '#0086c9',
  green: '#079455',
  amber: '#dc6803',
  red: '#d92d20',
  violet: '#7a5af8',
  gray: '#475467',
} as const;
export type WorkspaceColor = keyof typeof WORKSPACE_COLORS;

export interface ParsedIcon {
  icon: WorkspaceIconName;
  color: WorkspaceColor;
}

/** `rocket:green` → {icon, color}; null for anything else. */
export function parseWorkspaceIcon(value: string | null | undefined): ParsedIcon | null {
  const m = /^([a-z]+):([a-z]+)$/.exec(value ?? '');
  if (!m || !(m[1] in WORKSPACE_ICONS) || !(m[2] in WORKSPACE_COLORS)) return null;
  return { icon: m[1] as WorkspaceIconName, color: m[2] as WorkspaceColor };
}

export const formatWorkspaceIcon = ({ icon, color }: ParsedIcon) => `${icon}:${color}`;

const isImage = (v: string) => /^(https?:\/\/|\/|data:image\/)/.test(v);

const px: Record<AvatarSize, number> = { xs: 20, sm: 24, md: 32, lg: 40, xl: 56 };

export interface WorkspaceIconProps {
  icon: string;
  name: string;
  size?: AvatarSize;
  className?: string;
}

/** A square workspace badge. */
export function WorkspaceIcon({ icon, name, size = 'md', className }: WorkspaceIconProps) {
  const parsed = parseWorkspaceIcon(icon);
  if (!parsed) return <Avatar name={name} src={isImage(icon) ? icon : null} shape="square" size={size} className={className} />;
  const Icon = WORKSPACE_ICONS[parsed.icon];
  const side = px[size];
  return (
    <span
      data-slot="workspace-icon"
      role="img"
      aria-label={name}
      className={cn(s.icon, className)}
      style={{ width: side, height: side, background: WORKSPACE_COLORS[parsed.color] }}
    >
      <Icon aria-hidden="true" style={{ width: Math.round(side * 0.55), height: Math.round(side * 0.55) }} />
    </span>
  );
}
