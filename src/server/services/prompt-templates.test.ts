// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fstringVariables, jinja2Variables, TemplateSyntaxError, templateVariables } from './prompt-templates';

function syntaxError(fn: () => unknown): TemplateSyntaxError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(TemplateSyntaxError);
    return e as TemplateSyntaxError;
  }
  throw new Error('expected a TemplateSyntaxError');
}

describe('f-string variables', () => {
  it.each([
    ['Hello {name}, you are {age}.', ['name', 'age']],
    ['{b} {a} {b}', ['b', 'a']],
    ['no variables here', []],
    ['', []],
    ['{{literal}} and {{ {x} }}', ['x']],
    ['{value!r} {other!s} {third!a}', ['value', 'other', 'third']],
    ['{price:.2f} {when:%Y-%m-%d} {name:>{width}}', ['price', 'when', 'name', 'width']],
    ['{user.name} {items[0]} {cfg[key].x}', ['user', 'items', 'cfg']],
    ['{问题} {_private} {résumé}', ['问题', '_private', 'résumé']],
    ['}} {{', []],
    ['line1\n{a}\n{b!r:>10}', ['a', 'b']],
  ])('%j → %j', (src, vars) => {
    expect(fstringVariables(src)).toEqual(vars);
    expect(templateVariables('f-string', src)).toEqual(vars);
  });

  it.each([
    ['a } b', "Single '}'", 1, 3],
    ['a { b', "Expected '}'", 1, 3],
    ['{a', "Expected '}'", 1, 1],
    ['x {}', 'Empty field', 1, 3],
    ['{0} {1}', 'Positional field {0}', 1, 1],
    ['{a!x}', 'Unknown conversion', 1, 4],
    ['{a!rr}', "Expected ':' after conversion", 1, 5],
    ['{a:{b:{c}}}', 'Max string recursion', 1, 7],
    ['ok\n  {"json": 1}', "Invalid variable name '\"json\"'", 2, 4],
    ['{a b}', "Invalid variable name 'a b'", 1, 2],
    ['{a.}', 'Empty attribute', 1, 4],
    ['{a[0}', "Missing ']'", 1, 3],
    ['{a{b}}', "Unexpected '{' in field name", 1, 3],
  ])('%j is refused: %s at %i:%i', (src, reason, line, column) => {
    const e = syntaxError(() => fstringVariables(src));
    expect(e.reason).toContain(reason);
    expect([e.line, e.column]).toEqual([line, column]);
    expect(e.message).toContain(`line ${line}, column ${column}`);
  });
});

describe('jinja2 variables', () => {
  it.each([
    ['Hello {{ name }}!', ['name']],
    ['{{ a }}{{ b }}{{ a }}', ['a', 'b']],
    ['{{ user.name }} {{ user["id"] }} {{ obj.items[0].title }}', ['user', 'obj']],
    ['{{ text | upper }} {{ text|truncate(length=n, end=suffix) }}', ['text', 'n', 'suffix']],
    ['{{ x | default(fallback) | replace("a", "b") }}', ['x', 'fallback']],
    ['{% for x in items %}{{ x.name }} {{ loop.index }} {{ extra }}{% endfor %}', ['items', 'extra']],
    ['{% for k, v in mapping.items() %}{{ k }}={{ v }}{% endfor %}{{ k }}', ['mapping', 'k']],
    ['{% for x in xs if x > limit %}{{ x }}{% else %}{{ x }} none{% endfor %}', ['xs', 'limit', 'x']],
    ['{% if cond %}a{% elif other and not third %}b{% else %}{{ c }}{% endif %}', ['cond', 'other', 'third', 'c']],
    ['{% set greeting = "Hi " ~ who %}{{ greeting }} {{ who }}', ['who']],
    ['{{ total }}{% set total = 1 %}{{ total }}', ['total']],
    ['{% set a, b = pair %}{{ a }}{{ b }}', ['pair']],
    ['{% set ns = namespace(found=false) %}{% for i in rows %}{% set ns.found = true %}{% endfor %}{{ ns.found }}', ['rows']],
    ['{% set block_var %}{{ inner }}{% endset %}{{ block_var }}', ['inner']],
    ['{% with a = outer, b = 2 %}{{ a }}{{ b }}{{ c }}{% endwith %}{{ a }}', ['outer', 'c', 'a']],
    ['{% macro card(title, body=default_body) %}{{ title }}{{ body }}{{ caller() }}{% endmacro %}{{ card(heading) }}', ['default_body', 'heading']],
    ['{# {{ hidden }} #}{{ shown }}', ['shown']],
    ['{% raw %}{{ not_a_var }}{% endraw %}{{ real }}', ['real']],
    ['{%- if x -%} {{- y -}} {%+ endif %}', ['x', 'y']],
    ['{{ a if b else c }} {{ d ~ "s" }} {{ -e + f * 2 ** g // h % i }}', ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']],
    ['{{ [a, b][0] }} {{ {"k": v, "n": {"m": w}} }} {{ (p, q) }}', ['a', 'b', 'v', 'w', 'p', 'q']],
    ['{{ x is defined }} {{ y is not none }} {{ z is divisibleby 3 }} {{ s is sameas t }}', ['x', 'y', 'z', 's', 't']],
    ['{{ x in allowed }} {{ y not in banned }} {{ m == n }}', ['x', 'allowed', 'y', 'banned', 'm', 'n']],
    ['{{ range(3) }} {{ dict(a=1) }} {{ true }} {{ None }} {{ 1.5e3 }}', []],
    ['{{ items[1:2] }} {{ items[::step] }} {{ f(*args, **kw) }}', ['items', 'step', 'f', 'args', 'kw']],
    ['{% filter upper %}{{ body }}{% endfilter %}', ['body']],
    ['{% if a %}{% for b in c %}{% if b %}{{ d }}{% endif %}{% endfor %}{% endif %}', ['a', 'c', 'd']],
    ['{{ 问题 }} {{ 用户.名字 }}', ['问题', '用户']],
    ['plain text with { braces } and }} and {{ "}}" }}', []],
    ['{% call(row) table(rows) %}{{ row }}{{ heading }}{% endcall %}', ['table', 'rows', 'heading']],
  ])('%j → %j', (src, vars) => {
    expect(jinja2Variables(src)).toEqual(vars);
    expect(templateVariables('jinja2', src)).toEqual(vars);
  });

  it.each([
    ['Hello {{ name', "'{{' is never closed", 1, 7],
    ['{{ }}', 'Expected an expression, got end of print statement', 1, 4],
    ['{{ a b }}', "Expected end of print statement, got 'b'", 1, 6],
    ['{{ a + }}', 'Expected an expression', 1, 8],
    ['{{ f(a }}', "Unexpected '}', expected ')'", 1, 8],
    ['{{ f(a b) }}', "Expected ','", 1, 8],
    ['{{ "open }}', 'Unterminated string', 1, 4],
    ['{{ a ? b }}', "Unexpected character '?'", 1, 6],
    ['{{ a | }}', 'Expected a filter name', 1, 8],
    ['{{ and }}', "Expected an expression, got 'and'", 1, 4],
    ['line\n{% for x in items %}\n{{ x }}', "'for' block opened here is never closed (missing 'endfor')", 2, 1],
    ['{% if a %}{% endfor %}', "innermost open block is 'if'", 1, 14],
    ['{% endif %}', 'no block is open', 1, 4],
    ['{% else %}', "Unexpected 'else'", 1, 4],
    ['{% if a %}{% else %}{% elif b %}{% endif %}', "Unexpected 'elif'", 1, 24],
    ['{% for in items %}{% endfor %}', "Expected a variable name, got 'in'", 1, 8],
    ['{% for x of items %}{% endfor %}', "Expected 'in'", 1, 10],
    ['{% include "x.txt" %}', "Tag 'include' is not supported", 1, 4],
    ['{% frobnicate %}', "unknown tag 'frobnicate'", 1, 4],
    ['{% raw %}{{ x }}', 'Missing end of raw directive', 1, 1],
    ['{# note', 'Missing end of comment', 1, 1],
    ['{% %}', 'Expected a tag name', 1, 4],
  ])('%j is refused: %s at %i:%i', (src, reason, line, column) => {
    const e = syntaxError(() => jinja2Variables(src));
    expect(e.reason).toContain(reason);
    expect([e.line, e.column]).toEqual([line, column]);
  });

  it('never evaluates anything', () => {
    // Names that would be dangerous if evaluated are just names.
    expect(jinja2Variables("{{ ''.__class__.__mro__[1].__subclasses__() }} {{ cycler.__init__.__globals__.os }}")).toEqual([]);
    expect(jinja2Variables('{{ __import__("os").system("true") }}')).toEqual(['__import__']);
  });
});
