import { Slot, Tabs as Radix } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from './cn';
import s from './tabs.module.css';

/**
 * In-page tabs (Radix Tabs: arrow keys move between triggers).
 * @example
 * <Tabs defaultValue="general"><TabsList><TabsTrigger value="general">General</TabsTrigger></TabsList>
 *   <TabsContent value="general">…</TabsContent></Tabs>
 */
export function Tabs({ className, ...props }: ComponentProps<typeof Radix.Root>) {
  return <Radix.Root data-slot="tabs" className={cn(s.tabs, className)} {...props} />;
}

export interface TabsListProps extends ComponentProps<typeof Radix.List> {
  /** 'line' (underline, default) or 'segmented' (pill buttons in a tray). */
  variant?: 'line' | 'segmented';
}

export function TabsList({ variant = 'line', className, ...props }: TabsListProps) {
  return <Radix.List data-slot="tabs-list" data-variant={variant} className={cn(s.list, className)} {...props} />;
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof Radix.Trigger>) {
  return <Radix.Trigger data-slot="tabs-trigger" className={cn(s.trigger, className)} {...props} />;
}

export function TabsContent({ className, ...props }: ComponentProps<typeof Radix.Content>) {
  return <Radix.Content data-slot="tabs-content" className={cn(s.content, className)} {...props} />;
}

/**
 * Route tabs: a <nav> of links that look like line tabs. Give it an aria-label.
 * @example
 * <NavTabs aria-label="App sections">
 *   <NavTab asChild active={path === 'flow'}><Link to="flow">Flow</Link></NavTab>
 * </NavTabs>
 */
export function NavTabs({ className, children, ...props }: ComponentProps<'nav'>) {
  return (
    <nav data-slot="nav-tabs" className={className} {...props}>
      <div className={s.list} data-variant="line">
        {children}
      </div>
    </nav>
  );
}

export interface NavTabProps extends ComponentProps<'a'> {
  /** The current route: highlighted and aria-current="page". */
  active?: boolean;
  /** Render the child (a router link) instead of a plain <a>. */
  asChild?: boolean;
}

export function NavTab({ active, asChild, className, ...props }: NavTabProps) {
  const Comp = asChild ? Slot.Root : 'a';
  return (
    <Comp
      data-slot="nav-tab"
      data-state={active ? 'active' : 'inactive'}
      aria-current={active ? 'page' : undefined}
      className={cn(s.trigger, className)}
      {...props}
    />
  );
}
