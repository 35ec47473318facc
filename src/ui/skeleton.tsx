import type { ComponentProps, CSSProperties } from 'react';
import { cn } from './cn';
import s from './skeleton.module.css';

export interface SkeletonProps extends ComponentProps<'div'> {
  width?: CSSProperties['width'];
  /** Default 16 px. */
  height?: CSSProperties['height'];
  circle?: boolean;
}

/**
 * A pulsing placeholder block. Put `aria-busy` on the region that is loading.
 * @example <Skeleton width={120} height={20} />
 */
export function Skeleton({ width, height = 16, circle, className, style, ...props }: SkeletonProps) {
  return (
    <div
      data-slot="skeleton"
      aria-hidden="true"
      className={cn(s.skeleton, circle && s.circle, className)}
      style={{ width, height, ...(circle ? { width: width ?? height } : null), ...style }}
      {...props}
    />
  );
}

export interface SkeletonTextProps extends ComponentProps<'div'> {
  /** Default 3; the last line is shorter. */
  lines?: number;
}

/** Paragraph-shaped placeholder. */
export function SkeletonText({ lines = 3, className, ...props }: SkeletonTextProps) {
  return (
    <div data-slot="skeleton-text" aria-hidden="true" className={cn(s.text, className)} {...props}>
      {Array.from({ length: lines }, (_, i) => (
        <Skeleton key={i} height={12} width={i === lines - 1 && lines > 1 ? '60%' : '100%'} />
      ))}
    </div>
  );
}
