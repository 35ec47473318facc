/**
 * Icon and avatar presets (spec 9: 7 background colours and 9 default icons; icon upload one file
 * of at most 5 MB, png/jpg/jpeg/bmp/gif/svg/webp). Pure data.
 */

/** What an icon field holds: an uploaded image (`iconPath`, `iconId`) or a preset icon on a colour. */
export interface IconValue {
  /** URL of an uploaded image; wins over `icon` when set. */
  iconPath?: string;
  /** Id of the stored image file. */
  iconId?: string;
  /** A preset icon name ({@link ICON_NAMES}). */
  icon?: string;
  /** Background colour (hex, one of {@link ICON_COLORS}). */
  iconColor?: string;
}

/** The 7 background colours: id (i18n `kit:icon.colors.<id>`), background and foreground. */
export const ICON_COLORS = [
  { id: 'indigo', background: '#E0E7FF', color: '#3730A3' },
  { id: 'blue', background: '#DBEAFE', color: '#1D4ED8' },
  { id: 'teal', background: '#CCFBF1', color: '#0F766E' },
  { id: 'green', background: '#DCFCE7', color: '#15803D' },
  { id: 'amber', background: '#FEF3C7', color: '#B45309' },
  { id: 'orange', background: '#FFEDD5', color: '#C2410C' },
  { id: 'pink', background: '#FCE7F3', color: '#BE185D' },
] as const;

/** The 9 default icons (lucide names; i18n `kit:icon.names.<name>`). */
export const ICON_NAMES = ['bot', 'sparkles', 'message-square', 'book-open', 'workflow', 'wrench', 'database', 'file-text', 'globe'] as const;
export type IconName = (typeof ICON_NAMES)[number];

/** A new icon: the first icon on the first colour. */
export const DEFAULT_ICON: IconValue = { icon: ICON_NAMES[0], iconColor: ICON_COLORS[0].background };

/** Colours for a background: the preset's pair, or white text on an unknown colour. */
export function iconColors(background: string | undefined): { background: string; color: string } {
  const bg = background ?? ICON_COLORS[0].background;
  const preset = ICON_COLORS.find((c) => c.background.toLowerCase() === bg.toLowerCase());
  return preset ? { background: preset.background, color: preset.color } : { background: bg, color: '#ffffff' };
}
