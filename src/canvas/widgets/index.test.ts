import { describe, expect, it } from 'vitest';
import { NODE_WIDGETS } from '../../plugin-sdk';
import { nodeWidgets } from './index';

describe('nodeWidgets', () => {
  it('renders every custom widget the built-in plugins name', () => {
    // Plus 'code': the kit's built-in code editor, replaced in node inspectors by one with "Open large".
    expect(Object.keys(nodeWidgets).sort()).toEqual([...Object.values(NODE_WIDGETS), 'code'].sort());
  });
});
