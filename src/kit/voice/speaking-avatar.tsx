import type { ReactNode } from 'react';
import s from './voice.module.css';

export interface SpeakingAvatarProps {
  /** A portrait (a character's, later); without one, `children` (the app's icon) stands in. */
  imageUrl?: string;
  /** The character's idle clip: played muted and looped in place of the portrait (its sound is never the character's voice). */
  clipUrl?: string;
  name: string;
  /** The playing audio's level, 0..1 (WebAudio AnalyserNode): drives the mouth and the pulse. */
  level: number;
  speaking: boolean;
  size?: number;
  children?: ReactNode;
}

/**
 * A face that speaks with the audio: the portrait pulses and a mouth opens with the level, by CSS
 * transforms only (no layout, no re-render of anything else; the level arrives about every frame).
 */
export function SpeakingAvatar({ imageUrl, clipUrl, name, level, speaking, size = 56, children }: SpeakingAvatarProps) {
  const l = Math.max(0, Math.min(1, level));
  return (
    <div
      className={s.avatar}
      style={{ width: size, height: size, transform: `scale(${1 + l * 0.08})` }}
      data-speaking={speaking || undefined}
      data-level={l.toFixed(2)}
      data-testid="speaking-avatar"
      role="img"
      aria-label={name}
    >
      {clipUrl ? (
        // playsInline: iOS would otherwise take a playing video full screen. The portrait, if any, shows until the clip's first frame.
        <video className={s.portrait} src={clipUrl} poster={imageUrl} muted autoPlay loop playsInline preload="auto" aria-hidden="true" />
      ) : imageUrl ? (
        <img className={s.portrait} src={imageUrl} alt="" draggable={false} />
      ) : (
        <div className={s.portrait}>{children}</div>
      )}
      <span className={s.mouth} style={{ transform: `translateX(-50%) scaleY(${0.15 + l * 0.85})` }} aria-hidden="true" />
    </div>
  );
}
