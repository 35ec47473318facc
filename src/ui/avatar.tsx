import { Avatar as Radix } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from './cn';
import s from './avatar.module.css';

const sizes = { xs: 20, sm: 24, md: 32, lg: 40, xl: 56 } as const;
export type AvatarSize = keyof typeof sizes;

/** Background/foreground pairs readable in both themes. */
const palette = [
  ['#e0e7ff', '#3730a3'],
  ['#dcfce7', '#166534'],
  ['#fef3c7', '#92400e'],
  ['#fce7f3', '#9d174d'],
  ['#e0f2fe', '#075985'],
  ['#ede9fe', '#5b21b6'],
  ['#ffedd5', '#9a3412'],
  ['#ccfbf1', '#115e59'],
] as const;

/** Same name, same colour: a small string hash into the palette. */
export function avatarColor(seed: string): { background: string; color: string } {
  let h = 0;
  for (const ch of seed) h = (h * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  const [background, color] = palette[h % palette.length];
  return { background, color };
}

/** "Ada Lovelace" → "AL"; "张三丰" → "三丰" (last two CJK characters, as usual for Chinese names). */
export function initials(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) return '?';
  if (/[\u3400-\u9fff]/.test(trimmed)) return Array.from(trimmed.replace(/\s+/g, '')).slice(-2).join('');
  const words = trimmed.split(/[\s._-]+/).filter(Boolean);
  const letters = words.length > 1 ? words[0][0] + words[words.length - 1][0] : Array.from(words[0]).slice(0, 2).join('');
  return letters.toUpperCase();
}

export interface AvatarProps extends Omit<ComponentProps<typeof Radix.Root>, 'children'> {
  /** Display name: initials, colour seed and the image's alt text. */
  name: string;
  /** Image URL; initials show while loading or when it fails. */
  src?: string | null;
  size?: AvatarSize;
  /** 'circle' (people, default) or 'square' (workspaces, apps). */
  shape?: 'circle' | 'square';
  /** Seed for the colour when the name can change (e.g. the user id). */
  colorSeed?: string;
}

/** @example <Avatar name={user.nickname} src={user.avatar} size="sm" /> */
export function Avatar({ name, src, size = 'md', shape = 'circle', colorSeed, className, style, ...props }: AvatarProps) {
  const px = sizes[size];
  return (
    <Radix.Root
      data-slot="avatar"
      data-shape={shape}
      className={cn(s.root, className)}
      style={{ width: px, height: px, fontSize: Math.max(10, Math.round(px * 0.4)), ...avatarColor(colorSeed ?? name), ...style }}
      {...props}
    >
      {src && <Radix.Image className={s.image} src={src} alt={name} />}
      <Radix.Fallback className={s.fallback} delayMs={src ? 300 : 0} aria-label={name} role="img">
        {initials(name)}
      </Radix.Fallback>
    </Radix.Root>
  );
}
