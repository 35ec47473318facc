import { describe, expect, it } from 'vitest';
import { parseQuestions, unwrapAnswer } from './prompt-debug';
import { renderTemplate } from './prompt-render';
import { TemplateSyntaxError } from './prompt-templates';

describe('renderTemplate', () => {
  it('fills f-string fields by name; doubled braces are literal; specs and attributes take the value', () => {
    expect(renderTemplate('f-string', 'Hi {name}! {{json}} {name!r} {n:>{w}} {a.b}', { name: 'Ada', n: '7', w: '3', a: 'A' })).toBe('Hi Ada! {json} Ada 7 A');
    expect(renderTemplate('f-string', '{名字}好', { 名字: '李' })).toBe('李好');
    expect(() => renderTemplate('f-string', 'broken {', {})).toThrow(TemplateSyntaxError);
  });

  it('renders jinja2 with loops, conditions and filters; undefined is empty', () => {
    const t = '{% for x in items.split(",") %}[{{ x | upper }}]{% endfor %}{% if flag %}!{% endif %}{{ missing }}';
    expect(renderTemplate('jinja2', t, { items: 'a,b', flag: 'yes' })).toBe('[A][B]!');
  });
});

describe('parseQuestions', () => {
  it('reads arrays, fenced or in prose, objects with question, and lists; trims to count and drops repeats', () => {
    expect(parseQuestions('["a", "b", "a", "c"]', 5)).toEqual(['a', 'b', 'c']);
    expect(parseQuestions('Here:\n```json\n{"questions": ["x?", "y?"]}\n```', 1)).toEqual(['x?']);
    expect(parseQuestions('[{"question":"p?"},{"question":"q?"}]', 3)).toEqual(['p?', 'q?']);
    expect(parseQuestions('1. one?\n2) two?\n- three?\n• four?', 3)).toEqual(['one?', 'two?', 'three?']);
    expect(parseQuestions('', 3)).toEqual([]);
  });

  it('unwraps a fenced answer', () => {
    expect(unwrapAnswer('```text\nHello {x}\n```')).toBe('Hello {x}');
    expect(unwrapAnswer('  plain ')).toBe('plain');
  });
});
