import type { TemplateType } from '../../../schemas/prompt';

/**
 * Variables of prompt templates, found by reading the template, never by running it.
 *
 * - f-string (Python str.format): `{var}`, `{var!r}`, `{var:>10}`, `{var:{width}}` (a nested
 *   field is a variable too), `{var.attr}` / `{var[0]}` (the variable is `var`); `{{` and `}}`
 *   are literal braces. Positional fields (`{}`, `{0}`) are refused: prompts fill by name.
 * - jinja2: a small lexer and recursive-descent expression parser following Jinja's grammar.
 *   Variables are the names looked up from the context: `{{ var }}`, `{{ var.attr }}` → var,
 *   `{{ var | filter(arg) }}` → var and arg, `{% for x in items %}` → items (x and loop are
 *   bound inside the loop), `{% if cond %}`, `{% set y = … %}` (y bound afterwards), `{% with %}`,
 *   `{% macro %}`, `{% call %}`, `{% filter %}`, `{% block %}`, `{% raw %}`, comments. Filter,
 *   test and attribute names, keyword arguments, literals and Jinja's globals (range, dict,
 *   namespace, lipsum, cycler, joiner) are not variables.
 *
 * Both answer names in order of first appearance, each once. A template that does not parse
 * throws TemplateSyntaxError with the position (0-based offset, 1-based line and column).
 */

export class TemplateSyntaxError extends Error {
  readonly line: number;
  readonly column: number;
  constructor(
    readonly reason: string,
    readonly offset: number,
    source: string,
  ) {
    const before = source.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - (before.lastIndexOf('\n') + 1) + 1;
    super(`${reason} (line ${line}, column ${column})`);
    this.line = line;
    this.column = column;
  }
}

export function templateVariables(type: TemplateType, content: string): string[] {
  return type === 'jinja2' ? jinja2Variables(content) : fstringVariables(content);
}

const IDENT = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u;

// ------------------------------------------------------------------ f-string

export function fstringVariables(src: string): string[] {
  const found = new Set<string>();
  const fail = (reason: string, at: number): never => {
    throw new TemplateSyntaxError(reason, at, src);
  };
  const n = src.length;

  /** Parses the replacement field opening at `start` ('{'); answers the index after its '}'. */
  const field = (start: number, nested: boolean): number => {
    let j = start + 1;
    const nameStart = j;
    while (j < n && !'.[!:{}'.includes(src[j])) j++;
    const name = src.slice(nameStart, j);
    // Attribute and index parts: {a.b[0].c}
    while (j < n && (src[j] === '.' || src[j] === '[')) {
      if (src[j] === '.') {
        const at = ++j;
        while (j < n && !'.[!:{}'.includes(src[j])) j++;
        if (j === at) fail('Empty attribute in format string', at);
      } else {
        const close = src.indexOf(']', j);
        if (close < 0) fail("Missing ']' in format string", j);
        if (close === j + 1) fail('Empty attribute in format string', j);
        j = close + 1;
      }
    }
    if (j >= n) fail("Expected '}' before end of string", start);
    if (src[j] === '{') fail("Unexpected '{' in field name", j);
    if (name === '') fail("Empty field '{}': prompt variables need a name, e.g. {question}", start);
    if (/^\d+$/.test(name)) fail(`Positional field {${name}}: prompt variables need a name`, start);
    if (!IDENT.test(name)) fail(`Invalid variable name '${name}' (write '{{' and '}}' for literal braces)`, nameStart);
    found.add(name);
    if (src[j] === '!') {
      const conv = src[j + 1];
      if (conv === undefined || !'rsa'.includes(conv)) fail("Unknown conversion specifier: use !r, !s or !a", j + 1);
      j += 2;
      if (j >= n) fail("Expected '}' before end of string", start);
      if (src[j] !== ':' && src[j] !== '}') fail("Expected ':' after conversion specifier", j);
    }
    if (src[j] === ':') {
      j++;
      while (j < n && src[j] !== '}') {
        if (src[j] === '{') {
          if (nested) fail('Max string recursion exceeded', j);
          j = field(j, true);
        } else j++;
      }
    }
    if (j >= n || src[j] !== '}') fail("Expected '}' before end of string", start);
    return j + 1;
  };

  let i = 0;
  while (i < n) {
    const c = src[i];
    if (c === '{') {
      if (src[i + 1] === '{') i += 2;
      else i = field(i, false);
    } else if (c === '}') {
      if (src[i + 1] === '}') i += 2;
      else fail("Single '}' encountered in format string (write '}}' for a literal brace)", i);
    } else i++;
  }
  return [...found];
}

// ------------------------------------------------------------------ jinja2

type TokType = 'name' | 'string' | 'number' | 'op' | 'end';
interface Tok {
  type: TokType;
  value: string;
  offset: number;
}

const NAME_RE = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/uy;
const NUMBER_RE = /\d(?:_?\d)*(?:\.\d(?:_?\d)*)?(?:[eE][+-]?\d+)?/y;
const OPS = ['**', '//', '==', '!=', '<=', '>=', '+', '-', '*', '/', '%', '~', '<', '>', '=', '.', ',', ':', '|', '(', ')', '[', ']', '{', '}'];
const LITERALS = new Set(['true', 'false', 'none', 'True', 'False', 'None']);
const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'is', 'if', 'else']);
/** Jinja's default globals: looked up from the environment, not from the prompt's inputs. */
const GLOBALS = new Set(['range', 'dict', 'lipsum', 'cycler', 'joiner', 'namespace']);
const UNSUPPORTED_TAGS = new Set(['extends', 'include', 'import', 'from']);

/** Lexes one `{{ … }}` or `{% … %}` from `i` (just after the opener); answers its tokens and the index after it. */
function lexTag(src: string, i: number, kind: 'var' | 'block', openAt: number): { toks: Tok[]; next: number } {
  const toks: Tok[] = [];
  const close = kind === 'var' ? '}}' : '%}';
  let depth = 0;
  const closers: string[] = [];
  const n = src.length;
  while (true) {
    while (i < n && /\s/.test(src[i])) i++;
    if (i >= n) {
      throw new TemplateSyntaxError(
        `Unexpected end of template: '${kind === 'var' ? '{{' : '{%'}' is never closed with '${close}'`,
        openAt,
        src,
      );
    }
    if (depth === 0) {
      if (src.startsWith(close, i)) {
        toks.push({ type: 'end', value: close, offset: i });
        return { toks, next: i + 2 };
      }
      if ((src[i] === '-' || (kind === 'block' && src[i] === '+')) && src.startsWith(close, i + 1)) {
        toks.push({ type: 'end', value: close, offset: i });
        return { toks, next: i + 3 };
      }
    }
    const c = src[i];
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      if (j >= n) throw new TemplateSyntaxError('Unterminated string', i, src);
      toks.push({ type: 'string', value: src.slice(i, j + 1), offset: i });
      i = j + 1;
      continue;
    }
    NUMBER_RE.lastIndex = i;
    let m = NUMBER_RE.exec(src);
    if (m) {
      toks.push({ type: 'number', value: m[0], offset: i });
      i += m[0].length;
      continue;
    }
    NAME_RE.lastIndex = i;
    m = NAME_RE.exec(src);
    if (m) {
      toks.push({ type: 'name', value: m[0], offset: i });
      i += m[0].length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new TemplateSyntaxError(`Unexpected character '${c}'`, i, src);
    if (op === '(' || op === '[' || op === '{') {
      closers.push(op === '(' ? ')' : op === '[' ? ']' : '}');
      depth++;
    } else if ((op === ')' || op === ']' || op === '}') && depth > 0) {
      const want = closers.pop();
      if (op !== want) throw new TemplateSyntaxError(`Unexpected '${op}', expected '${want}'`, i, src);
      depth--;
    }
    toks.push({ type: 'op', value: op, offset: i });
    i += op.length;
  }
}

interface Block {
  tag: string;
  offset: number;
  /** A scope opened for the block's body (for, with, macro, call). */
  scoped: boolean;
  sawElse?: boolean;
  /** `{% set x %}…{% endset %}` binds x at the end. */
  bindAtEnd?: string[];
}

const END_OF: Record<string, string> = {
  for: 'endfor',
  if: 'endif',
  with: 'endwith',
  macro: 'endmacro',
  call: 'endcall',
  filter: 'endfilter',
  block: 'endblock',
  set: 'endset',
  autoescape: 'endautoescape',
};

class JinjaState {
  readonly found = new Set<string>();
  readonly scopes: Set<string>[] = [new Set()];
  readonly blocks: Block[] = [];
  constructor(readonly src: string) {}

  fail(reason: string, at: number): never {
    throw new TemplateSyntaxError(reason, at, this.src);
  }

  bound(name: string) {
    return this.scopes.some((s) => s.has(name));
  }

  use(name: string) {
    if (!this.bound(name) && !GLOBALS.has(name)) this.found.add(name);
  }

  bind(names: string[]) {
    for (const n of names) this.scopes[this.scopes.length - 1].add(n);
  }

  open(block: Block, names: string[] = []) {
    this.blocks.push(block);
    if (block.scoped) this.scopes.push(new Set(names));
  }

  close(tag: string, at: number) {
    const top = this.blocks[this.blocks.length - 1];
    if (!top) this.fail(`Unexpected '${tag}': no block is open`, at);
    if (END_OF[top.tag] !== tag) this.fail(`Unexpected '${tag}': the innermost open block is '${top.tag}', closed by '${END_OF[top.tag]}'`, at);
    this.blocks.pop();
    if (top.scoped) this.scopes.pop();
    if (top.bindAtEnd) this.bind(top.bindAtEnd);
  }

  finish() {
    const open = this.blocks[this.blocks.length - 1];
    if (open) this.fail(`Unexpected end of template: the '${open.tag}' block opened here is never closed (missing '${END_OF[open.tag]}')`, open.offset);
  }
}

class Parser {
  p = 0;
  constructor(
    readonly toks: Tok[],
    readonly st: JinjaState,
    readonly what: string,
  ) {}

  get cur(): Tok {
    return this.toks[this.p];
  }
  atEnd(): boolean {
    return this.cur.type === 'end';
  }
  peek(k = 1): Tok | undefined {
    return this.toks[this.p + k];
  }
  describe(t: Tok) {
    return t.type === 'end' ? `end of ${this.what}` : `'${t.value}'`;
  }
  fail(reason: string, t: Tok = this.cur): never {
    return this.st.fail(reason, t.offset);
  }
  isOp(v: string, t: Tok | undefined = this.cur) {
    return t?.type === 'op' && t.value === v;
  }
  isName(v: string, t: Tok | undefined = this.cur) {
    return t?.type === 'name' && t.value === v;
  }
  skipOp(v: string) {
    if (!this.isOp(v)) return false;
    this.p++;
    return true;
  }
  expectOp(v: string) {
    if (!this.skipOp(v)) this.fail(`Expected '${v}', got ${this.describe(this.cur)}`);
  }
  expectKeyword(v: string) {
    if (!this.isName(v)) this.fail(`Expected '${v}', got ${this.describe(this.cur)}`);
    this.p++;
  }
  expectIdent(role: string): Tok {
    const t = this.cur;
    if (t.type !== 'name' || KEYWORDS.has(t.value) || LITERALS.has(t.value)) this.fail(`Expected ${role}, got ${this.describe(t)}`);
    this.p++;
    return t;
  }
  expectEnd() {
    if (this.cur.type !== 'end') this.fail(`Expected end of ${this.what}, got ${this.describe(this.cur)}`);
  }

  // expr := or ('if' or ('else' expr)?)?
  expression(withCondexpr = true): void {
    this.or();
    if (withCondexpr && this.isName('if')) {
      this.p++;
      this.or();
      if (this.isName('else')) {
        this.p++;
        this.expression();
      }
    }
  }
  or() {
    this.and();
    while (this.isName('or')) {
      this.p++;
      this.and();
    }
  }
  and() {
    this.not();
    while (this.isName('and')) {
      this.p++;
      this.not();
    }
  }
  not(): void {
    if (this.isName('not')) {
      this.p++;
      return this.not();
    }
    this.compare();
  }
  compare() {
    this.arith();
    while (true) {
      const t = this.cur;
      if (t.type === 'op' && ['==', '!=', '<', '>', '<=', '>='].includes(t.value)) this.p++;
      else if (this.isName('in')) this.p++;
      else if (this.isName('not') && this.isName('in', this.peek())) this.p += 2;
      else break;
      this.arith();
    }
  }
  /** Binary arithmetic and concatenation: precedence does not change which names are read. */
  arith() {
    this.unary();
    while (this.cur.type === 'op' && ['+', '-', '*', '/', '//', '%', '**', '~'].includes(this.cur.value)) {
      this.p++;
      this.unary();
    }
  }
  unary(): void {
    if (this.isOp('-') || this.isOp('+')) {
      this.p++;
      return this.unary();
    }
    this.primary();
    this.postfix();
    this.filters();
  }
  primary() {
    const t = this.cur;
    if (t.type === 'name') {
      if (KEYWORDS.has(t.value)) this.fail(`Expected an expression, got '${t.value}'`);
      this.p++;
      if (!LITERALS.has(t.value)) this.st.use(t.value);
      return;
    }
    if (t.type === 'string') {
      while (this.cur.type === 'string') this.p++;
      return;
    }
    if (t.type === 'number') {
      this.p++;
      return;
    }
    if (this.skipOp('(')) {
      if (!this.skipOp(')')) {
        this.tuple();
        this.expectOp(')');
      }
      return;
    }
    if (this.skipOp('[')) {
      while (!this.skipOp(']')) {
        this.expression();
        if (!this.isOp(']')) this.expectOp(',');
      }
      return;
    }
    if (this.skipOp('{')) {
      while (!this.skipOp('}')) {
        this.expression();
        this.expectOp(':');
        this.expression();
        if (!this.isOp('}')) this.expectOp(',');
      }
      return;
    }
    this.fail(`Expected an expression, got ${this.describe(t)}`);
  }
  postfix() {
    while (true) {
      if (this.skipOp('.')) {
        const t = this.cur;
        if (t.type !== 'name' && t.type !== 'number') this.fail(`Expected an attribute name after '.', got ${this.describe(t)}`);
        this.p++;
      } else if (this.skipOp('[')) {
        this.subscript();
      } else if (this.skipOp('(')) {
        this.callArgs();
      } else return;
    }
  }
  subscript() {
    // a[i], a[i:j], a[::k], a[i, j]
    do {
      if (this.isOp(']')) break;
      if (!this.isOp(':')) this.expression();
      for (let k = 0; k < 2 && this.skipOp(':'); k++) {
        if (!this.isOp(':') && !this.isOp(']') && !this.isOp(',')) this.expression();
      }
    } while (this.skipOp(','));
    this.expectOp(']');
  }
  callArgs() {
    while (!this.skipOp(')')) {
      if (this.isOp('*') || this.isOp('**')) {
        this.p++;
        this.expression();
      } else if (this.cur.type === 'name' && this.isOp('=', this.peek())) {
        this.p += 2; // keyword argument name
        this.expression();
      } else this.expression();
      if (!this.isOp(')')) this.expectOp(',');
    }
  }
  dottedName(role: string, anyName = false) {
    if (anyName && this.cur.type === 'name') this.p++;
    else this.expectIdent(role);
    while (this.isOp('.') && this.peek()?.type === 'name') this.p += 2;
  }
  filters() {
    while (true) {
      if (this.skipOp('|')) {
        this.dottedName('a filter name');
        if (this.skipOp('(')) this.callArgs();
      } else if (this.isName('is')) {
        this.p++;
        if (this.isName('not')) this.p++;
        this.dottedName('a test name', true);
        if (this.skipOp('(')) this.callArgs();
        else {
          const t = this.cur;
          const startsArg =
            (t.type === 'name' && !['else', 'or', 'and', 'if', 'in', 'not', 'is'].includes(t.value)) ||
            t.type === 'string' ||
            t.type === 'number' ||
            this.isOp('(') ||
            this.isOp('[') ||
            this.isOp('{');
          if (startsArg) {
            this.primary();
            this.postfix();
          }
        }
      } else return;
    }
  }
  tuple(withCondexpr = true) {
    this.expression(withCondexpr);
    while (this.skipOp(',')) {
      if (this.cur.type === 'end' || this.isOp(')') || this.isName('if') || this.isName('recursive')) break;
      this.expression(withCondexpr);
    }
  }
  /** Assignment targets: `x`, `a, b`, `(a, b)`; answers the names. */
  targets(): string[] {
    const names: string[] = [];
    const one = () => {
      if (this.skipOp('(')) {
        do names.push(...this.targets());
        while (this.skipOp(','));
        this.expectOp(')');
      } else names.push(this.expectIdent('a variable name').value);
    };
    one();
    while (this.isOp(',') && this.peek()?.type === 'name') {
      this.p++;
      one();
    }
    return names;
  }
  /** Filter chain of `{% filter upper|trim %}` / `{% set x | upper %}`. */
  filterChain() {
    do {
      this.dottedName('a filter name');
      if (this.skipOp('(')) this.callArgs();
    } while (this.skipOp('|'));
  }
  /** Macro and call parameters `(a, b=default)`; answers the names. */
  params(): string[] {
    const names: string[] = [];
    this.expectOp('(');
    while (!this.skipOp(')')) {
      names.push(this.expectIdent('a parameter name').value);
      if (this.skipOp('=')) this.expression();
      if (!this.isOp(')')) this.expectOp(',');
    }
    return names;
  }
}

/** Handles one `{% … %}`; answers true when it opened a raw block. */
function blockStatement(st: JinjaState, toks: Tok[], openAt: number): boolean {
  const ps = new Parser(toks, st, 'statement block');
  const head = ps.cur;
  if (head.type !== 'name') ps.fail(`Expected a tag name, got ${ps.describe(head)}`);
  const tag = head.value;
  ps.p++;
  switch (tag) {
    case 'for': {
      const names = ps.targets();
      ps.expectKeyword('in');
      ps.tuple(false);
      st.open({ tag, offset: openAt, scoped: true }, [...names, 'loop']);
      if (ps.isName('if')) {
        ps.p++;
        ps.expression();
      }
      if (ps.isName('recursive')) ps.p++;
      break;
    }
    case 'if':
      ps.tuple(false);
      st.open({ tag, offset: openAt, scoped: false });
      break;
    case 'elif': {
      const top = st.blocks[st.blocks.length - 1];
      if (top?.tag !== 'if' || top.sawElse) ps.fail("Unexpected 'elif': it belongs inside an 'if' block before its 'else'", head);
      ps.tuple(false);
      break;
    }
    case 'else': {
      const top = st.blocks[st.blocks.length - 1];
      if (!top || (top.tag !== 'if' && top.tag !== 'for') || top.sawElse) ps.fail("Unexpected 'else': it belongs inside an 'if' or 'for' block, once", head);
      top.sawElse = true;
      if (top.tag === 'for') {
        // The else branch runs when the loop had no items: the loop names are not bound there.
        st.scopes[st.scopes.length - 1] = new Set();
      }
      break;
    }
    case 'set': {
      const t = ps.cur;
      if (t.type === 'name' && ps.isOp('.', ps.peek())) {
        // {% set ns.attr = value %}: reads the namespace object.
        ps.p++;
        st.use(t.value);
        ps.p++;
        ps.expectIdent('an attribute name');
        ps.expectOp('=');
        ps.tuple();
        break;
      }
      const names = ps.targets();
      if (ps.skipOp('=')) {
        ps.tuple();
        st.bind(names);
      } else {
        if (ps.skipOp('|')) ps.filterChain();
        st.open({ tag, offset: openAt, scoped: false, bindAtEnd: names });
      }
      break;
    }
    case 'with': {
      const names: string[] = [];
      while (!ps.atEnd()) {
        names.push(...ps.targets());
        ps.expectOp('=');
        ps.expression();
        if (!ps.atEnd()) ps.expectOp(',');
      }
      st.open({ tag, offset: openAt, scoped: true }, names);
      break;
    }
    case 'macro': {
      const name = ps.expectIdent('a macro name').value;
      st.bind([name]);
      const params = ps.params();
      st.open({ tag, offset: openAt, scoped: true }, [...params, 'varargs', 'kwargs', 'caller']);
      break;
    }
    case 'call': {
      const params = ps.isOp('(') ? ps.params() : [];
      ps.expression();
      st.open({ tag, offset: openAt, scoped: true }, [...params, 'varargs', 'kwargs']);
      break;
    }
    case 'filter':
      ps.filterChain();
      st.open({ tag, offset: openAt, scoped: false });
      break;
    case 'block':
      ps.expectIdent('a block name');
      while (ps.isName('scoped') || ps.isName('required')) ps.p++;
      st.open({ tag, offset: openAt, scoped: true }, ['super']);
      break;
    case 'autoescape':
      ps.expression();
      st.open({ tag, offset: openAt, scoped: false });
      break;
    case 'raw':
      ps.expectEnd();
      return true;
    default:
      if (tag.startsWith('end') && Object.values(END_OF).includes(tag)) {
        st.close(tag, head.offset);
        // {% endblock name %}, {% endmacro name %}
        if (ps.cur.type === 'name') ps.p++;
        break;
      }
      if (UNSUPPORTED_TAGS.has(tag)) ps.fail(`Tag '${tag}' is not supported in prompt templates`, head);
      ps.fail(`Encountered unknown tag '${tag}'`, head);
  }
  ps.expectEnd();
  return false;
}

export function jinja2Variables(src: string): string[] {
  const st: JinjaState = new JinjaState(src);
  const opener = /\{\{|\{%|\{#/g;
  let pos = 0;
  while (true) {
    opener.lastIndex = pos;
    const m = opener.exec(src);
    if (!m) break;
    const start = m.index;
    if (m[0] === '{#') {
      const end = src.indexOf('#}', start + 2);
      if (end < 0) st.fail("Missing end of comment tag '#}'", start);
      pos = end + 2;
      continue;
    }
    const kind = m[0] === '{{' ? 'var' : 'block';
    let i = start + 2;
    if (src[i] === '-' || (kind === 'block' && src[i] === '+')) i++;
    const { toks, next } = lexTag(src, i, kind, start);
    pos = next;
    if (kind === 'var') {
      const ps = new Parser(toks, st, 'print statement');
      ps.tuple();
      ps.expectEnd();
    } else if (blockStatement(st, toks, start)) {
      const endRaw = /\{%[-+]?\s*endraw\s*[-+]?%\}/g;
      endRaw.lastIndex = pos;
      const e = endRaw.exec(src);
      if (!e) throw new TemplateSyntaxError("Missing end of raw directive '{% endraw %}'", start, src);
      pos = e.index + e[0].length;
    }
  }
  st.finish();
  return [...st.found];
}
