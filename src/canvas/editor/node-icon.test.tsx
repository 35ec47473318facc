import { describe, expect, it } from 'vitest';
import { builtinPlugins } from '../builtin-plugins';
import { isStaticIcon } from './node-icon';

describe('node icons', () => {
  // The editor preloads every kind's icon on open: one missing from the static map loads all of lucide.
  it('has every built-in kind’s lucide icon in its static map', () => {
    const missing = builtinPlugins.flatMap((p) => ('lucide' in p.icon && !isStaticIcon(p.icon.lucide) ? [`${p.kind}: ${p.icon.lucide}`] : []));
    expect(missing).toEqual([]);
  });
});
