import type { ComponentProps } from 'react';
import { cn } from './cn';
import s from './card.module.css';

export interface CardProps extends ComponentProps<'div'> {
  /** Hover lift for clickable cards (app lists); make the inner title a link or button. */
  interactive?: boolean;
}

/**
 * A bordered surface.
 * @example <Card><CardHeader><CardTitle>Usage</CardTitle></CardHeader><CardContent>…</CardContent></Card>
 */
export function Card({ interactive, className, ...props }: CardProps) {
  return <div data-slot="card" className={cn(s.card, interactive && s.interactive, className)} {...props} />;
}

export function CardHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="card-header" className={cn(s.header, className)} {...props} />;
}

export function CardTitle({ className, ...props }: ComponentProps<'h3'>) {
  return <h3 data-slot="card-title" className={cn(s.title, className)} {...props} />;
}

export function CardDescription({ className, ...props }: ComponentProps<'p'>) {
  return <p data-slot="card-description" className={cn(s.description, className)} {...props} />;
}

export function CardContent({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="card-content" className={cn(s.content, className)} {...props} />;
}

export function CardFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div data-slot="card-footer" className={cn(s.footer, className)} {...props} />;
}
