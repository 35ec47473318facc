import { vi } from 'vitest';

/**
 * What React Flow needs from a browser that jsdom lacks (STACK-NOTES): ResizeObserver and
 * DOMMatrixReadOnly. The observer never reports sizes; nodes render unmeasured, which is enough
 * for clicking and reading them.
 */
export function stubBrowserForReactFlow() {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  vi.stubGlobal('ResizeObserver', ResizeObserverStub);
  if (!('DOMMatrixReadOnly' in globalThis)) {
    class DOMMatrixReadOnlyStub {
      m22 = 1;
      constructor(transform?: string) {
        const scale = transform?.match(/scale\(([1-9.])\)/)?.[1];
        this.m22 = scale !== undefined ? Number(scale) : 1;
      }
    }
    vi.stubGlobal('DOMMatrixReadOnly', DOMMatrixReadOnlyStub);
  }
}
