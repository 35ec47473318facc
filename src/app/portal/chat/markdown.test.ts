import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('renderMarkdown', () => {
  it('never renders HTML from the text: tags, attributes and scripts come out escaped', () => {
    const html = renderMarkdown('Hi <img src=x onerror="alert(1)"> and <script>alert(2)</script>\n\n<div onclick="x()">block</div>');
    expect(html).not.toMatch(/<img|<script|<div onclick/);
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
  });

  it('renders markdown: emphasis, lists, tables, inline code', () => {
    const html = renderMarkdown('**bold** and `x < y`\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<code>x &lt; y</code>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<table>');
  });

  it('highlights code of a registered language and escapes code of any other', () => {
    const py = renderMarkdown('```python\ndef f(x):\n    return "<b>"\n```');
    expect(py).toContain('class="hljs language-python"');
    expect(py).toContain('<span class="hljs-keyword">def</span>');
    expect(py).toContain('&lt;b&gt;');
    const other = renderMarkdown('```brainfuck\n<b>+++</b>\n```');
    expect(other).toContain('&lt;b&gt;+++&lt;/b&gt;');
    expect(other).not.toContain('<b>');
  });

  it('opens links in a new tab without access to the opener, and drops script links', () => {
    const html = renderMarkdown('[site](https://example.com) [bad](javascript:alert(1))');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">site</a>');
    expect(html).not.toMatch(/href="javascript:/i);
  });

  it('shows images as links instead of loading them (an answer cannot send data away by an image URL)', () => {
    const html = renderMarkdown('![chart](https://tracker.example/p.png?q=secret)');
    expect(html).not.toContain('<img');
    expect(html).toContain('href="https://tracker.example/p.png?q=secret"');
    expect(html).toContain('chart');
  });
});
