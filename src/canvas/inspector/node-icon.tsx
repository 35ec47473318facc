import type { NodeIcon as NodeIconSpec } from '../../plugin-sdk';
import { NodeIcon as Glyph } from '../editor/node-icon';
import s from './inspector.module.css';

/** A node kind's icon on its accent colour (the glyph is the canvas's, loaded on demand). */
export function NodeIconTile({ icon, color, size = 28 }: { icon?: NodeIconSpec; color?: string; size?: number }) {
  return (
    <span className={s.icon} style={{ width: size, height: size, background: color ?? 'var(--color-primary)' }} data-slot="node-icon">
      {icon && <Glyph icon={icon} size={Math.round(size * 0.6)} />}
    </span>
  );
}
