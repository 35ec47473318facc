import { describe, expect, it } from 'vitest';
import { CalculatorError, evaluateExpression } from './calculator';

describe('calculator', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['2 ^ 3 ^ 2', 512],
    ['2 ** 10', 1024],
    ['-3 ^ 2', 9],
    ['10 % 4', 2],
    ['7 / 2', 3.5],
    ['1.5e3 + .5', 1500.5],
    ['sqrt(16) + abs(-2) + round(2.5) + floor(2.9) + ceil(2.1)', 4 + 2 + 3 + 2 + 3],
    ['max(1, 5, 3) - min(4, 2)', 3],
    ['pow(2, 8)', 256],
    ['log(1000) + ln(e)', 4],
    ['2 × 3 ÷ 4', 1.5],
    ['--2', 2],
  ])('%s = %d', (expr, value) => expect(evaluateExpression(expr)).toBeCloseTo(value, 10));

  it.each([
    ['', 'empty'],
    ['1 +', 'ends too early'],
    ['(1 + 2', 'Expected ")"'],
    ['1 + 2)', 'Unexpected ")"'],
    ['constructor', 'Unknown name'],
    ['globalThis.process', 'Unknown name'],
    ['alert(1)', 'Unknown function'],
    ['constructor(1)', 'Unknown function'],
    ['toString()', 'Unknown function'],
    ['1 / 0', 'not a finite number'],
    ['"1" + 1', 'Unexpected'],
  ])('%j fails: %s', (expr, message) => {
    expect(() => evaluateExpression(expr)).toThrow(CalculatorError);
    expect(() => evaluateExpression(expr)).toThrow(message);
  });

  it('refuses very long and very deep expressions', () => {
    expect(() => evaluateExpression('1+'.repeat(600) + '1')).toThrow('longer than');
    expect(() => evaluateExpression('('.repeat(150) + '1' + ')'.repeat(150))).toThrow('nested too deeply');
  });
});
