/**
 * The server's pino options. Credentials never reach the log: request serializers of Fastify log
 * no headers today, but anything that logs a request, its headers or an HTTP client's config (a
 * plugin, an error's `config`, a debug line) has its credentials censored wherever they sit.
 */
const SECRET_HEADERS = ['authorization', 'cookie', '["x-api-key"]', '["proxy-authorization"]'];
const HOLDERS = ['req.headers', 'request.headers', 'headers', '*.headers', 'err.config.headers', 'err.request.headers', '*.*.headers'];

export const REDACTED = '[redacted]';

export function loggerOptions(level: string) {
  return {
    level,
    redact: {
      paths: HOLDERS.flatMap((h) => SECRET_HEADERS.map((s) => (s.startsWith('[') ? `${h}${s}` : `${h}.${s}`))),
      censor: REDACTED,
    },
  };
}
