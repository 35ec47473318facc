import { describe, expect, it } from 'vitest';
import { NodeExecutionError } from '../../plugin-sdk';
import { BUILTIN_TOOLS, htmlToText, runBuiltinTool } from './builtin';

const signal = new AbortController().signal;

describe('built-in tools', () => {
  it('htmlToText keeps the readable text and decodes entities, unknown ones left as they are', () => {
    expect(htmlToText('<title>A &lt;b&gt;</title><script>x()</script><h1>Head</h1><p>One&#32;&#x41;</p><!-- c --><div>&constructor; &nbsp;two</div>')).toEqual({
      title: 'A <b>',
      text: 'Head\nOne A\n&constructor; two',
    });
  });

  it('current_time answers in the asked time zone and refuses an unknown one', async () => {
    const r = await runBuiltinTool('current_time', { timezone: 'Asia/Shanghai' }, { signal });
    expect(r.text).toMatch(/^\w+, \d{4}-\d{2}-\d{2}, \d{2}:\d{2}:\d{2} \(Asia\/Shanghai\)$/);
    expect(r.json).toMatchObject({ timezone: 'Asia/Shanghai', unix: expect.any(Number) });
    await expect(runBuiltinTool('current_time', { timezone: 'Mars/Base' }, { signal })).rejects.toMatchObject({ code: 'TOOL-INVALID-ARGUMENT' });
  });

  it('the web page reader needs an http(s) URL and the HTTP client; unknown tools fail clearly', async () => {
    await expect(runBuiltinTool('webpage_reader', { url: 'file:///etc/passwd' }, { signal })).rejects.toMatchObject({ code: 'TOOL-INVALID-ARGUMENT' });
    await expect(runBuiltinTool('webpage_reader', { url: 'https://example.com' }, { signal })).rejects.toMatchObject({ code: 'TOOL-HTTP-UNAVAILABLE' });
    const err = await runBuiltinTool('toString', {}, { signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeExecutionError);
    expect(err).toMatchObject({ code: 'TOOL-BUILTIN-UNKNOWN' });
  });

  it('each tool describes itself for function calling', () => {
    for (const [id, t] of Object.entries(BUILTIN_TOOLS)) {
      expect(t.definition.name).toBe(id);
      expect(t.definition.parameters).toMatchObject({ type: 'object' });
    }
  });
});
