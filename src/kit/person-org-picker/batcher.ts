/**
 * Gathers keys for `delayMs` after the first one arrives, then hands them all to `flush` at once
 * (spec 9: picker requests are batched with a 50 ms delay). Keys are deduplicated; order is kept.
 *
 * @example
 * const b = createBatcher<string>((orgIds) => ensureStatus(orgIds), 50);
 * b.add('a'); b.add('b'); // one flush(['a', 'b']) 50 ms after the first add
 */
export interface Batcher<K> {
  add(key: K): void;
  /** Flushes what is waiting now (no-op when nothing is). */
  flushNow(): void;
  /** Drops what is waiting. */
  cancel(): void;
  /** Number of keys waiting. */
  readonly size: number;
}

export function createBatcher<K>(flush: (keys: K[]) => void, delayMs = 50): Batcher<K> {
  let waiting = new Set<K>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fire = () => {
    timer = null;
    if (waiting.size === 0) return;
    const keys = [...waiting];
    waiting = new Set();
    flush(keys);
  };
  return {
    add(key) {
      waiting.add(key);
      if (timer === null) timer = setTimeout(fire, delayMs);
    },
    flushNow() {
      if (timer !== null) clearTimeout(timer);
      fire();
    },
    cancel() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      waiting = new Set();
    },
    get size() {
      return waiting.size;
    },
  };
}
