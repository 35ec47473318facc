import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../schemas/errors';
import { PARAM_ERROR } from './error-codes';

describe('error codes used without the catalogue module', () => {
  it('are the catalogue codes', () => {
    expect(PARAM_ERROR).toBe(ErrorCode.PARAM);
  });
});
