import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBatcher } from './batcher';

describe('createBatcher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the keys of one 50 ms window together, deduplicated, in order', () => {
    const flush = vi.fn();
    const b = createBatcher<string>(flush, 50);
    b.add('a');
    vi.advanceTimersByTime(30);
    b.add('b');
    b.add('a');
    expect(flush).not.toHaveBeenCalled();
    vi.advanceTimersByTime(20);
    expect(flush).toHaveBeenCalledTimes(1);
    expect(flush).toHaveBeenCalledWith(['a', 'b']);
    b.add('c');
    vi.advanceTimersByTime(50);
    expect(flush).toHaveBeenLastCalledWith(['c']);
    expect(flush).toHaveBeenCalledTimes(2);
  });

  it('flushes now or cancels on demand', () => {
    const flush = vi.fn();
    const b = createBatcher<number>(flush, 50);
    b.add(1);
    expect(b.size).toBe(1);
    b.flushNow();
    expect(flush).toHaveBeenCalledWith([1]);
    b.add(2);
    b.cancel();
    vi.advanceTimersByTime(100);
    expect(flush).toHaveBeenCalledTimes(1);
    b.flushNow();
    expect(flush).toHaveBeenCalledTimes(1);
  });
});
