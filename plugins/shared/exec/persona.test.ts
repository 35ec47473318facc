import { describe, expect, it } from 'vitest';
import { withPersona } from './model-call';

describe('the portal persona (sys.persona)', () => {
  it("goes after the builder's system prompt, or first as a system message of its own", () => {
    expect(withPersona([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }], 'You are a pirate.')).toEqual([
      { role: 'system', content: 'Be brief.\n\nYou are a pirate.' },
      { role: 'user', content: 'hi' },
    ]);
    expect(withPersona([{ role: 'user', content: 'hi' }], 'You are a pirate.')).toEqual([
      { role: 'system', content: 'You are a pirate.' },
      { role: 'user', content: 'hi' },
    ]);
    const plain = [{ role: 'user' as const, content: 'hi' }];
    expect(withPersona(plain, '')).toBe(plain);
  });
});
