/**
 * Code snippets of a public-API call (curl and JavaScript's fetch) from an endpoint's description.
 * Pure. Everything taken from the app (input names, labels, select options) is escaped for the target
 * language: a curl argument is single-quoted for a POSIX shell (a quote inside becomes `'\''`), a
 * JavaScript string is a JSON string literal, a JSON body is JSON.stringify's text. The key stays the
 * placeholder {@link API_KEY_PLACEHOLDER}: a snippet never holds a real secret.
 */

export const API_KEY_PLACEHOLDER = '{{API_KEY}}';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** One call as the snippets write it. */
export interface CallExample {
  method: HttpMethod;
  /** The path under the base URL, `:name` for path parameters (braces would be curl's URL globbing). */
  path: string;
  /** Query parameters (GET lists). */
  query?: Readonly<Record<string, string | number>>;
  /** A JSON body. */
  json?: unknown;
  /** A multipart body (file upload): plain fields, and the file field's name and example file. */
  multipart?: { fields: Readonly<Record<string, string>>; file: { field: string; name: string; type: string } };
}

/** The whole URL of a call: base (no trailing slash) + path + encoded query. */
export function callUrl(baseUrl: string, call: CallExample): string {
  const query = Object.entries(call.query ?? {})
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  return `${baseUrl.replace(/\/+$/, '')}${call.path}${query ? `?${query}` : ''}`;
}

/**
 * A POSIX shell word holding `s` exactly: single quotes, each quote inside closed, escaped and reopened.
 * @example shellQuote("it's") // `'it'\''s'`
 */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A JavaScript string literal of `s` (JSON's escaping: quotes, backslashes, control characters). */
export const jsString = (s: string): string => JSON.stringify(s);

/** JSON text indented by two spaces, each line after the first shifted by `indent`. */
const indented = (value: unknown, indent: string) => JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);

/**
 * The curl command of a call.
 * @example curlSnippet('https://weft.example/v1', { method: 'GET', path: '/parameters' })
 * // curl -X GET 'https://weft.example/v1/parameters' \
 * //   -H 'Authorization: Bearer {{API_KEY}}'
 */
export function curlSnippet(baseUrl: string, call: CallExample): string {
  const lines = [`curl -X ${call.method} ${shellQuote(callUrl(baseUrl, call))}`, `  -H ${shellQuote(`Authorization: Bearer ${API_KEY_PLACEHOLDER}`)}`];
  if (call.multipart) {
    for (const [k, v] of Object.entries(call.multipart.fields)) lines.push(`  -F ${shellQuote(`${k}=${v}`)}`);
    const f = call.multipart.file;
    lines.push(`  -F ${shellQuote(`${f.field}=@${f.name};type=${f.type}`)}`);
  } else if (call.json !== undefined) {
    lines.push(`  -H ${shellQuote('Content-Type: application/json')}`);
    lines.push(`  -d ${shellQuote(JSON.stringify(call.json, null, 2))}`);
  }
  return lines.join(' \\\n');
}

/**
 * The same call with fetch (browsers, Node 18+, Deno, Bun), ending with the answer read as JSON.
 * The body is `JSON.stringify(<the JSON text>)`: JSON text is a valid JavaScript expression.
 */
export function fetchSnippet(baseUrl: string, call: CallExample): string {
  const headers = [`    Authorization: ${jsString(`Bearer ${API_KEY_PLACEHOLDER}`)},`];
  const out: string[] = [];
  let body: string | null = null;
  if (call.multipart) {
    out.push('const form = new FormData();');
    for (const [k, v] of Object.entries(call.multipart.fields)) out.push(`form.append(${jsString(k)}, ${jsString(v)});`);
    const f = call.multipart.file;
    out.push(`// A File or Blob, e.g. from <input type="file">: input.files[0]`);
    out.push(`form.append(${jsString(f.field)}, file, ${jsString(f.name)});`);
    out.push('');
    body = 'form';
  } else if (call.json !== undefined) {
    headers.push(`    'Content-Type': 'application/json',`);
    body = `JSON.stringify(${indented(call.json, '  ')})`;
  }
  out.push(`const response = await fetch(${jsString(callUrl(baseUrl, call))}, {`);
  out.push(`  method: ${jsString(call.method)},`);
  out.push('  headers: {', ...headers, '  },');
  if (body) out.push(`  body: ${body},`);
  out.push('});');
  out.push('const data = await response.json();');
  out.push('console.log(data);');
  return out.join('\n');
}
