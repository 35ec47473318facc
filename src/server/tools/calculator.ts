/**
 * A calculator for the built-in tool: a small recursive-descent parser over numbers, + - * / %,
 * ^ or ** (power, right-associative), parentheses, unary signs, the constants pi and e, and a few
 * Math functions. Never `eval`: the expression comes from users and models.
 */

const FUNCTIONS: Record<string, (...a: number[]) => number> = {
  abs: Math.abs,
  sqrt: Math.sqrt,
  cbrt: Math.cbrt,
  round: Math.round,
  floor: Math.floor,
  ceil: Math.ceil,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  ln: Math.log,
  log: Math.log10,
  log10: Math.log10,
  log2: Math.log2,
  exp: Math.exp,
  pow: Math.pow,
  min: Math.min,
  max: Math.max,
};
const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

export class CalculatorError extends Error {
  override name = 'CalculatorError';
}

const MAX_LENGTH = 1000;
const MAX_DEPTH = 100;

/**
 * The value of an arithmetic expression.
 * @example evaluateExpression('2 * (3 + 4) ^ 2') // 98
 * @throws CalculatorError on a syntax error, an unknown name, or a result that is not finite
 */
export function evaluateExpression(input: string): number {
  if (input.length > MAX_LENGTH) throw new CalculatorError(`The expression is longer than ${MAX_LENGTH} characters`);
  const src = input.replace(/[×]/g, '*').replace(/[÷]/g, '/');
  let pos = 0;
  let depth = 0;

  const skip = () => {
    while (pos < src.length && /\s/.test(src[pos])) pos++;
  };
  const peek = () => (skip(), src[pos]);
  const expect = (ch: string) => {
    if (peek() !== ch) throw new CalculatorError(`Expected "${ch}" at position ${pos + 1}`);
    pos++;
  };
  const enter = () => {
    if (++depth > MAX_DEPTH) throw new CalculatorError('The expression is nested too deeply');
  };

  function expression(): number {
    let v = term();
    for (let c = peek(); c === '+' || c === '-'; c = peek()) {
      pos++;
      v = c === '+' ? v + term() : v - term();
    }
    return v;
  }

  function term(): number {
    let v = power();
    for (let c = peek(); (c === '*' && src[pos + 1] !== '*') || c === '/' || c === '%'; c = peek()) {
      pos++;
      const r = power();
      v = c === '*' ? v * r : c === '/' ? v / r : v % r;
    }
    return v;
  }

  function power(): number {
    const base = unary();
    const c = peek();
    if (c === '^' || (c === '*' && src[pos + 1] === '*')) {
      pos += c === '^' ? 1 : 2;
      enter();
      const exp = power(); // right-associative: 2^3^2 = 2^9
      depth--;
      return base ** exp;
    }
    return base;
  }

  function unary(): number {
    const c = peek();
    if (c === '+' || c === '-') {
      pos++;
      enter();
      const v = unary();
      depth--;
      return c === '-' ? -v : v;
    }
    return primary();
  }

  function primary(): number {
    const c = peek();
    if (c === '(') {
      pos++;
      enter();
      const v = expression();
      depth--;
      expect(')');
      return v;
    }
    const num = /^(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?/i.exec(src.slice(pos));
    if (num) {
      pos += num[0].length;
      return Number(num[0]);
    }
    const name = /^[a-z_][a-z0-9_]*/i.exec(src.slice(pos));
    if (name) {
      pos += name[0].length;
      const id = name[0].toLowerCase();
      if (peek() === '(') {
        // Own keys only: `constructor(` or `toString(` must not reach Object.prototype.
        const fn = Object.prototype.hasOwnProperty.call(FUNCTIONS, id) ? FUNCTIONS[id] : undefined;
        if (!fn) throw new CalculatorError(`Unknown function "${name[0]}"`);
        pos++;
        enter();
        const args: number[] = [];
        if (peek() !== ')') {
          args.push(expression());
          while (peek() === ',') {
            pos++;
            args.push(expression());
          }
        }
        depth--;
        expect(')');
        return fn(...args);
      }
      if (Object.prototype.hasOwnProperty.call(CONSTANTS, id)) return CONSTANTS[id];
      throw new CalculatorError(`Unknown name "${name[0]}"`);
    }
    throw new CalculatorError(pos >= src.length ? 'The expression ends too early' : `Unexpected "${src[pos]}" at position ${pos + 1}`);
  }

  if (!src.trim()) throw new CalculatorError('The expression is empty');
  const value = expression();
  if (peek() !== undefined) throw new CalculatorError(`Unexpected "${src[pos]}" at position ${pos + 1}`);
  if (!Number.isFinite(value)) throw new CalculatorError('The result is not a finite number');
  return value;
}
