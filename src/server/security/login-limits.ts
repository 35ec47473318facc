import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Settings } from '../settings';
import { AppError } from '../errors';
import { ErrorCode } from '../../../schemas/errors';

/**
 * Limits on guessing passwords: sign-ins and the old-password check of a password change. Failures
 * are counted in the database (`login_throttles`), so every server process on it agrees, under three
 * keys per attempt:
 *
 * - the account at the client address (`pair:`): locked after `loginMaxFailures` (5) failures, for
 *   `loginLockSeconds` (1 min); every further failure locks again for twice as long (2, 4, 8 min),
 *   at most `loginMaxLockSeconds` (15 min). Someone guessing from one address gets one try per lock
 *   and never locks the user out at another address.
 * - the account from all addresses (`account:`): locked the same way after `loginAccountMaxFailures`
 *   (20), each address counting with its first `loginMaxFailures` failures only; this stops guessing
 *   spread over many addresses (which can lock the user out too, a lock at a time, for as long as it goes on).
 * - the client address on any accounts (`address:`): locked after `loginAddressMaxFailures` (50).
 *
 * A locked key refuses every attempt, the right password included (else the lock would tell the
 * password), with 429 AUTH-1006 and Retry-After; refused attempts are not counted. Locks end by
 * themselves; counts are forgotten an hour after the key's last failure. A success clears its
 * account's count and the account-at-address count, and takes back its own attempt from the address
 * (so that signing in to one's own account cannot wipe the address's failures).
 *
 * An attempt is counted before the password is checked (a reservation), and taken back on success:
 * parallel attempts cannot all pass the check before any failure is written.
 */

export type LoginLimits = Pick<
  Settings,
  'loginMaxFailures' | 'loginAccountMaxFailures' | 'loginAddressMaxFailures' | 'loginLockSeconds' | 'loginMaxLockSeconds'
>;

export interface LoginSubject {
  tenantId: string;
  /** As typed at sign-in (any case: usernames are unique case-insensitively). */
  username: string;
  /** The client address (request.ip: the socket's, or X-Forwarded-For's with WEFT_TRUST_PROXY). */
  address: string;
}

interface Reservation {
  pair: string;
  account: string;
  address: string;
  /** This attempt set the address's lock (taken back with the attempt on success). */
  lockedAddress: boolean;
}

/** A key's count is forgotten after this long without a failure (and its row deleted by the sweep). */
const forgetSeconds = (limits: LoginLimits) => Math.max(3600, 2 * limits.loginMaxLockSeconds);
const SWEEP_EVERY_MS = 10 * 60_000;
let lastSweep = 0;

/** Lock length after the `failures`-th failure of a key whose limit is `max`, or null below the limit. */
export function lockSeconds(failures: number, max: number, limits: LoginLimits): number | null {
  if (failures < max) return null;
  const doubled = limits.loginLockSeconds * 2 ** Math.min(failures - max, 30);
  return Math.min(doubled, limits.loginMaxLockSeconds);
}

export function tooManyAttempts(retryAfter: number): AppError {
  return new AppError(429, ErrorCode.TOO_MANY_ATTEMPTS, `Too many failed attempts; try again in ${retryAfter} s`, { retry_after: retryAfter }, {
    'retry-after': String(retryAfter),
  });
}

type Row = { key: string; failures: number; stale: boolean; wait: number };

async function reserve(db: Db, limits: LoginLimits, subject: LoginSubject): Promise<Reservation> {
  const account = `account:${subject.tenantId}:${subject.username.toLowerCase()}`;
  const r: Reservation = { pair: `pair:${subject.address}:${account.slice(8)}`, account, address: `address:${subject.address}`, lockedAddress: false };
  // Rows first, in a statement of their own: locking them below in key order then cannot deadlock
  // with another attempt that inserted one of them.
  await db.execute(sql`insert into login_throttles (key) values (${r.pair}), (${r.account}), (${r.address}) on conflict (key) do nothing`);
  const forget = forgetSeconds(limits);
  return db.transaction(async (tx) => {
    const res = await tx.execute(sql`
      select key, failures,
             last_failure_at < now() - ${forget} * interval '1 second' as stale,
             coalesce(ceil(extract(epoch from (locked_until - now()))), 0)::int as wait
      from login_throttles where key in (${r.pair}, ${r.account}, ${r.address}) order by key for update`);
    const rows = new Map(((res as unknown as { rows: Row[] }).rows).map((row) => [row.key, row]));
    const wait = Math.max(0, ...[...rows.values()].map((row) => Number(row.wait)));
    if (wait > 0) throw tooManyAttempts(wait);
    const next = (key: string) => {
      const row = rows.get(key);
      return !row || row.stale ? 1 : Number(row.failures) + 1;
    };
    const pairFailures = next(r.pair);
    const counts: [string, number, number][] = [
      [r.pair, pairFailures, limits.loginMaxFailures],
      [r.address, next(r.address), limits.loginAddressMaxFailures],
    ];
    // An address counts toward the account with its first failures only: one address guessing
    // slowly, a try per lock, must not lock the user out everywhere.
    if (pairFailures <= limits.loginMaxFailures) counts.push([r.account, next(r.account), limits.loginAccountMaxFailures]);
    for (const [key, failures, max] of counts) {
      const lock = lockSeconds(failures, max, limits);
      if (key === r.address) r.lockedAddress = lock !== null;
      await tx.execute(sql`
        insert into login_throttles (key, failures, last_failure_at, locked_until)
        values (${key}, ${failures}, now(), ${lock === null ? null : sql`now() + ${lock} * interval '1 second'`})
        on conflict (key) do update set failures = excluded.failures, last_failure_at = excluded.last_failure_at, locked_until = excluded.locked_until`);
    }
    return r;
  });
}

async function succeeded(db: Db, r: Reservation): Promise<void> {
  await db.execute(sql`delete from login_throttles where key in (${r.pair}, ${r.account})`);
  await db.execute(sql`
    update login_throttles set failures = greatest(failures - 1, 0),
      locked_until = case when ${r.lockedAddress} then null else locked_until end
    where key = ${r.address}`);
}

async function sweep(db: Db, limits: LoginLimits): Promise<void> {
  if (Date.now() - lastSweep < SWEEP_EVERY_MS) return;
  lastSweep = Date.now();
  await db.execute(sql`
    delete from login_throttles
    where last_failure_at < now() - ${forgetSeconds(limits)} * interval '1 second'
      and (locked_until is null or locked_until < now())`);
}

/**
 * Runs a password check under the limits: throws 429 AUTH-1006 (changing nothing) while any of the
 * subject's keys is locked; otherwise counts the attempt, runs `check` and, when it passes, takes the
 * failure back and clears the account's counts. Answers what `check` answered.
 *
 * @example if (!(await checkPasswordLimited(db, settings, { tenantId, username, address: req.ip }, () => verifyPassword(hash, pw)))) throw wrong();
 */
export async function checkPasswordLimited(db: Db, limits: LoginLimits, subject: LoginSubject, check: () => Promise<boolean>): Promise<boolean> {
  const reservation = await reserve(db, limits, subject);
  let passed = false;
  try {
    passed = await check();
  } finally {
    if (passed) await succeeded(db, reservation);
    else await sweep(db, limits).catch(() => {});
  }
  return passed;
}
