/** PostgreSQL error codes the services test for (the driver's error may be wrapped by drizzle: look through causes). */
export function isUniqueViolation(e: unknown): boolean {
  for (let cur = e as { code?: string; cause?: unknown } | undefined, depth = 0; cur && depth < 3; depth++) {
    if (cur.code === '23505') return true;
    cur = cur.cause as typeof cur;
  }
  return false;
}
