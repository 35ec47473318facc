/**
 * What a portal user chose in an app's character settings (issue 31): whether its answers are read
 * out and at which speed (null: the character's own). Kept per user and app in localStorage, so the
 * choice survives a reload; the chat reads it when it opens. A stored value that no longer fits
 * (hand-edited, an older shape) reads as the defaults.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { z } from 'zod';
import { CHARACTER_SPEED_MAX, CHARACTER_SPEED_MIN } from '../../../schemas/digital-human';
import { useSession } from '../session';

export const VoicePrefs = z.object({
  speak: z.boolean().default(true),
  speed: z.number().min(CHARACTER_SPEED_MIN).max(CHARACTER_SPEED_MAX).nullable().default(null),
});
export type VoicePrefs = z.infer<typeof VoicePrefs>;

export const DEFAULT_VOICE_PREFS: VoicePrefs = { speak: true, speed: null };
const PREFIX = 'weft.portal.voice';
export const voicePrefsKey = (userId: string, appId: string) => `${PREFIX}.${userId}.${appId}`;

/** Listeners of this tab (the storage event only tells other tabs). */
const listeners = new Set<() => void>();
const cache = new Map<string, { raw: string | null; prefs: VoicePrefs }>();

export function readVoicePrefs(userId: string, appId: string): VoicePrefs {
  const key = voicePrefsKey(userId, appId);
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(key);
  } catch {
    raw = null;
  }
  // The same object while the stored text is the same (useSyncExternalStore compares snapshots).
  const hit = cache.get(key);
  if (hit && hit.raw === raw) return hit.prefs;
  let prefs = DEFAULT_VOICE_PREFS;
  if (raw) {
    try {
      const parsed = VoicePrefs.safeParse(JSON.parse(raw));
      if (parsed.success) prefs = parsed.data;
    } catch {
      prefs = DEFAULT_VOICE_PREFS;
    }
  }
  cache.set(key, { raw, prefs });
  return prefs;
}

export function writeVoicePrefs(userId: string, appId: string, prefs: VoicePrefs) {
  const checked = VoicePrefs.parse(prefs);
  try {
    localStorage.setItem(voicePrefsKey(userId, appId), JSON.stringify(checked));
  } catch {
    // Storage full or off: the choice lasts this page only.
  }
  for (const l of listeners) l();
}

function subscribe(onChange: () => void) {
  listeners.add(onChange);
  window.addEventListener('storage', onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onChange);
  };
}

/** The signed-in user's choices for an app, and a way to save them. */
export function useVoicePrefs(appId: string | null | undefined): [VoicePrefs, (p: VoicePrefs) => void] {
  const userId = useSession((s) => s.user?.id ?? 'anonymous');
  const prefs = useSyncExternalStore(subscribe, () => (appId ? readVoicePrefs(userId, appId) : DEFAULT_VOICE_PREFS));
  const save = useCallback((p: VoicePrefs) => appId && writeVoicePrefs(userId, appId, p), [userId, appId]);
  return [prefs, save];
}
