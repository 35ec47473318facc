import { describe, expect, it } from 'vitest';
import { paramsFor } from './tool-params';

describe('paramsFor', () => {
  it('gives one row per parameter, keeping the value of a row with the same name', () => {
    const current = [
      { name: 'city', source: 'variable', selector: ['start', 'city'], text: '' },
      { name: 'old', source: 'text', selector: [], text: 'gone' },
      'not a row',
    ];
    expect(paramsFor(current, [{ name: 'days', type: 'integer' }, { name: 'city', required: true }])).toEqual([
      { name: 'days', source: 'text', selector: [], text: '' },
      { name: 'city', source: 'variable', selector: ['start', 'city'], text: '' },
    ]);
    expect(paramsFor(undefined, [])).toEqual([]);
  });
});
