import { describe, expect, it } from 'vitest';
import { NODE_WIDGETS } from '../../plugin-sdk';
import { nodeWidgets } from './index';

describe('nodeWidgets', () => {
  it('renders every custom widget the built-in plugins name', () => {
    expect(Object.keys(nodeWidgets).sort()).toEqual(Object.values(NODE_WIDGETS).sort());
  });
});
