import { describe, expect, it } from 'vitest';
import { FLOW_MODES } from '../../../../schemas/flow';
import { APP_MODES } from './app-modes';

describe('APP_MODES', () => {
  it('lists the schema\'s modes in its order', () => {
    expect(APP_MODES).toEqual(FLOW_MODES);
  });
});
