/**
 * Cuts a streaming answer into sentences to speak as each one completes (so speech starts before
 * the answer ends): at 。！？.!?；; and line breaks. A '.' between digits (3.14) or before a
 * letter (e.g. example.com) is not an end. Pieces without a letter or digit (a lone '**') are dropped.
 */
const END = /[。！？!?；;\n]|\.(?=\s|$)/g;
const SPEAKABLE = /[\p{L}\p{N}]/u;

export class SentenceSplitter {
  private buffer = '';

  /** The sentences that `delta` completes. */
  push(delta: string): string[] {
    this.buffer += delta;
    const out: string[] = [];
    let start = 0;
    END.lastIndex = 0;
    for (let m = END.exec(this.buffer); m; m = END.exec(this.buffer)) {
      // A '.' at the very end may be a decimal point or an abbreviation: wait for what follows.
      if (m[0] === '.' && m.index === this.buffer.length - 1) break;
      const piece = this.buffer.slice(start, m.index + 1).trim();
      if (SPEAKABLE.test(piece)) out.push(piece);
      start = m.index + 1;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /** What is left when the answer ends. */
  flush(): string[] {
    const rest = this.buffer.trim();
    this.buffer = '';
    return SPEAKABLE.test(rest) ? [rest] : [];
  }
}
