import { NodeExecutionError, type HttpClient, type ToolDefinition, type ToolService } from '../../plugin-sdk';
import { CalculatorError, evaluateExpression } from './calculator';

/**
 * The inner tools every workspace has: a tool node or an agent names them with the provider id
 * `builtin`. They run in the server's tool service (`services.tools`, ./runtime.ts), like every
 * other tool: executors never call them directly.
 */
export const BUILTIN_TOOL_PROVIDER = 'builtin';

export const BUILTIN_TOOL_ERRORS = {
  UNKNOWN: 'TOOL-BUILTIN-UNKNOWN',
  INVALID_ARGUMENT: 'TOOL-INVALID-ARGUMENT',
  HTTP_UNAVAILABLE: 'TOOL-HTTP-UNAVAILABLE',
  FETCH_FAILED: 'TOOL-FETCH-FAILED',
} as const;

export interface ToolRunResult {
  text: string;
  json?: Record<string, unknown>;
}

export interface BuiltinTool {
  definition: ToolDefinition;
  run(args: Record<string, unknown>, env: { http?: HttpClient; signal: AbortSignal }): Promise<ToolRunResult> | ToolRunResult;
}

const invalid = (message: string) => new NodeExecutionError(BUILTIN_TOOL_ERRORS.INVALID_ARGUMENT, message);

function currentTime(args: Record<string, unknown>): ToolRunResult {
  const timezone = typeof args.timezone === 'string' && args.timezone.trim() ? args.timezone.trim() : 'UTC';
  const now = new Date();
  let text: string;
  try {
    text = new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      weekday: 'long',
    }).format(now);
  } catch {
    throw invalid(`Unknown time zone "${timezone}"`);
  }
  return { text: `${text} (${timezone})`, json: { iso: now.toISOString(), unix: Math.floor(now.getTime() / 1000), timezone, text } };
}

function calculator(args: Record<string, unknown>): ToolRunResult {
  const expression = typeof args.expression === 'string' ? args.expression : typeof args.expression === 'number' ? String(args.expression) : '';
  try {
    const result = evaluateExpression(expression);
    return { text: String(result), json: { expression, result } };
  } catch (e) {
    if (e instanceof CalculatorError) throw invalid(`Cannot calculate "${expression}": ${e.message}`);
    throw e;
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Readable text of an HTML page: scripts, styles and tags out, entities decoded, blank runs collapsed. */
export function htmlToText(html: string): { title: string; text: string } {
  const decode = (s: string) =>
    s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') {
        const code = e[1].toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
      }
      const name = e.toLowerCase();
      return Object.prototype.hasOwnProperty.call(ENTITIES, name) ? ENTITIES[name] : m;
    });
  const title = decode(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '').trim();
  const text = decode(
    html
      .replace(/<(script|style|noscript|template|svg|head|title)[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<(br|\/p|\/div|\/li|\/h[1-6]|\/tr|\/section|\/article)[^>]*>/gi, '\n')
      .replace(/<[^>]+>/g, ' '),
  )
    .replace(/[ \t\f\v\r]+/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();
  return { title, text };
}

const MAX_PAGE_TEXT = 20_000;

async function webpageReader(args: Record<string, unknown>, env: { http?: HttpClient; signal: AbortSignal }): Promise<ToolRunResult> {
  const url = typeof args.url === 'string' ? args.url.trim() : '';
  if (!/^https?:\/\/\S+$/i.test(url)) throw invalid('The web page reader needs an http(s) URL');
  // Through the server's guarded client only: it blocks private addresses and caps sizes.
  if (!env.http) throw new NodeExecutionError(BUILTIN_TOOL_ERRORS.HTTP_UNAVAILABLE, 'No HTTP client is available to this run');
  const res = await env.http.request({ method: 'GET', url, headers: { accept: 'text/html,text/plain;q=0.9,*/*;q=0.5' }, timeoutMs: 30_000, signal: env.signal });
  if (res.status >= 400) throw new NodeExecutionError(BUILTIN_TOOL_ERRORS.FETCH_FAILED, `The page answered with status ${res.status}`, { status: res.status });
  const type = (res.headers['content-type'] ?? '').toLowerCase();
  const page = type.includes('html') || /^\s*</.test(res.body) ? htmlToText(res.body) : { title: '', text: res.body.trim() };
  const text = page.text.length > MAX_PAGE_TEXT ? `${page.text.slice(0, MAX_PAGE_TEXT)}…` : page.text;
  return { text: page.title ? `${page.title}\n\n${text}` : text, json: { url, title: page.title, content: text } };
}

/** The built-in tools by function id. */
export const BUILTIN_TOOLS: Readonly<Record<string, BuiltinTool>> = Object.freeze({
  current_time: {
    definition: {
      name: 'current_time',
      description: 'The current date and time in a time zone',
      parameters: { type: 'object', properties: { timezone: { type: 'string', description: 'IANA time zone, e.g. Asia/Shanghai (default UTC)' } } },
    },
    run: currentTime,
  },
  calculator: {
    definition: {
      name: 'calculator',
      description: 'Evaluates an arithmetic expression: + - * / % ^, parentheses, sqrt, abs, round, floor, ceil, sin, cos, tan, ln, log, exp, min, max, pi, e',
      parameters: { type: 'object', properties: { expression: { type: 'string', description: 'e.g. (2 + 3) * 4 ^ 2' } }, required: ['expression'] },
    },
    run: calculator,
  },
  webpage_reader: {
    definition: {
      name: 'webpage_reader',
      description: 'Fetches a web page and returns its readable text',
      parameters: { type: 'object', properties: { url: { type: 'string', description: 'http(s) URL of the page' } }, required: ['url'] },
    },
    run: webpageReader,
  },
});

/** Runs a built-in tool; a clear error for an unknown function id. */
export function runBuiltinTool(name: string, args: Record<string, unknown>, env: { http?: HttpClient; signal: AbortSignal }): Promise<ToolRunResult> {
  const tool = Object.prototype.hasOwnProperty.call(BUILTIN_TOOLS, name) ? BUILTIN_TOOLS[name] : undefined;
  if (!tool) return Promise.reject(new NodeExecutionError(BUILTIN_TOOL_ERRORS.UNKNOWN, `There is no built-in tool "${name}"`));
  return Promise.resolve().then(() => tool.run(args, env));
}

/** A built-in tool's definition, or undefined for an unknown name. */
export function builtinToolDefinition(name: string): ToolDefinition | undefined {
  return Object.prototype.hasOwnProperty.call(BUILTIN_TOOLS, name) ? BUILTIN_TOOLS[name].definition : undefined;
}

/**
 * `services.tools` for the built-in tools alone (provider `builtin`; any other provider is not
 * found). The run's tool service hands `builtin` calls to it; engine scenarios use it on its own.
 */
export function createBuiltinToolService(env: { http?: HttpClient }): ToolService {
  const other = (provider: string, name: string) => new NodeExecutionError('TOOL-NOT-FOUND', `The tool "${provider}/${name}" cannot be found`);
  return {
    async call(ref, args, { signal }) {
      if (ref.provider !== BUILTIN_TOOL_PROVIDER) throw other(ref.provider, ref.name);
      const r = await runBuiltinTool(ref.name, args, { http: env.http, signal });
      return { text: r.text, files: [], json: r.json ? [r.json] : [] };
    },
    async describe(ref) {
      return ref.provider === BUILTIN_TOOL_PROVIDER ? builtinToolDefinition(ref.name) : undefined;
    },
  };
}
