import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { loginCodes, tenants, users } from '../db/schema';
import { AppError } from '../errors';
import { ErrorCode } from '../../../schemas/errors';
import { normalizeTarget, type LoginCodeChannel } from '../../../schemas/login-code';
import { checkPasswordLimited, type LoginLimits } from '../security/login-limits';
import { ensureKey } from '../security/keys';
import { codeMessage, type CodeSenders } from './senders';

type UserRow = typeof users.$inferSelect;

/** 429 RATE-1000 with Retry-After: no code goes out before `seconds`. */
const sendingTooSoon = (seconds: number) =>
  new AppError(429, ErrorCode.RATE_LIMITED, `Too many codes sent; try again in ${seconds} s`, { retry_after: seconds }, { 'retry-after': String(seconds) });

export interface SendInput {
  tenantId: string;
  channel: LoginCodeChannel;
  target: string;
  /** The client address (request.ip). */
  address: string;
  /** The login page's language, for the message. */
  lang?: string;
}

export interface VerifyInput {
  tenantId: string;
  channel: LoginCodeChannel;
  target: string;
  code: string;
  address: string;
}

export interface LoginCodeService {
  /** Sends a code (or, when no user has the target, pretends to): when the next may be sent and how long it lives. */
  send(input: SendInput): Promise<{ resend_after: number; expires_in: number }>;
  /** The user a right code signs in (the code is used up), else LOGIN-1005 (or 429 AUTH-1006 while locked). */
  verify(input: VerifyInput): Promise<UserRow>;
}

/**
 * Verification-code sign-in by email or SMS (spec 5 login variants). A code is 6 random digits kept
 * only as an HMAC under a server key (a leaked table does not give codes away, and 10^6 guesses of
 * a plain hash would); it expires (WEFT_LOGIN_CODE_TTL_SECONDS, 5 min), signs in once, and a few
 * wrong tries use it up. A new code replaces the target's earlier ones.
 *
 * Limits, on the sign-in limits' table and rules (security/login-limits.ts): sending waits
 * WEFT_LOGIN_CODE_RESEND_SECONDS between codes to one target, and is counted per target at the
 * address, per target and per address (locks of 1 min, doubling), refused with 429 RATE-1000; wrong codes count as failed
 * sign-ins of the target at the address, sharing the address's count with password sign-ins.
 *
 * Whether a user has the phone or email is never told: an unknown one gets the same answer and a
 * row that can never sign in, but no message.
 */
export function createLoginCodeService(ctx: ServerContext, senders: CodeSenders, log: (detail: unknown, msg: string) => void): LoginCodeService {
  const { db, settings } = ctx;
  let key: Promise<Uint8Array> | undefined;
  const hmac = async (id: string, code: string) => createHmac('sha256', await (key ??= ensureKey(db, 'login_code_hmac_key'))).update(`${id}:${code}`).digest('hex');

  const channelSender = (channel: LoginCodeChannel) => {
    const s = senders[channel];
    if (!s) throw new AppError(400, ErrorCode.LOGIN_CODE_UNAVAILABLE, `Sign-in by ${channel} code is not configured on this server`);
    return s;
  };

  /** Sends count like failures on keys of their own: the target at the address, the target, the address. */
  const sendLimits: LoginLimits = {
    loginMaxFailures: settings.loginCodeTargetMaxSends,
    loginAccountMaxFailures: 2 * settings.loginCodeTargetMaxSends,
    loginAddressMaxFailures: settings.loginCodeAddressMaxSends,
    loginLockSeconds: settings.loginLockSeconds,
    loginMaxLockSeconds: settings.loginMaxLockSeconds,
  };

  /** The enabled user of the tenant with this phone or email; none when unknown or when two share it. */
  async function userOf(tenantId: string, channel: LoginCodeChannel, target: string): Promise<UserRow | undefined> {
    const match =
      channel === 'email'
        ? sql`lower(trim(${users.email})) = ${target}`
        : sql`regexp_replace(regexp_replace(${users.phone}, '[\\s()-]', '', 'g'), '^\\+86(1[3-9][0-9]{9})$', '\\1') = ${target}`;
    const rows = await db
      .select({ user: users })
      .from(users)
      .innerJoin(tenants, eq(tenants.id, users.tenantId))
      .where(and(eq(users.tenantId, tenantId), eq(users.status, 1), eq(tenants.status, 1), match))
      .limit(2);
    if (rows.length > 1) log({ tenantId, channel }, 'two users share the phone or email: no sign-in code sent');
    return rows.length === 1 ? rows[0].user : undefined;
  }

  return {
    async send(input) {
      const sender = channelSender(input.channel);
      const target = normalizeTarget(input.channel, input.target);
      const [tenant] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, input.tenantId));
      if (!tenant) throw new AppError(400, ErrorCode.PARAM, 'The tenant does not exist', { resource: 'tenant' });
      // The resend interval holds for the target in any tenant: it is one phone or mailbox.
      const [last] = await db
        .select({ createdAt: loginCodes.createdAt })
        .from(loginCodes)
        .where(and(eq(loginCodes.channel, input.channel), eq(loginCodes.target, target)))
        .orderBy(desc(loginCodes.createdAt))
        .limit(1);
      const wait = last ? Math.ceil((last.createdAt.getTime() + settings.loginCodeResendSeconds * 1000 - Date.now()) / 1000) : 0;
      if (wait > 0) throw sendingTooSoon(wait);
      try {
        await checkPasswordLimited(db, sendLimits, { tenantId: 'login-code', username: `${input.channel}:${target}`, address: `send:${input.address}` }, async () => false);
      } catch (e) {
        // The limits' lock is about sending here, not failed sign-ins: said as too many requests.
        if (e instanceof AppError && e.code === ErrorCode.TOO_MANY_ATTEMPTS) throw sendingTooSoon((e.data as { retry_after: number }).retry_after);
        throw e;
      }

      const user = await userOf(input.tenantId, input.channel, target);
      const id = randomUUID();
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const now = new Date();
      // Old rows go as new ones come (no timer); earlier codes of the target are used up: the newest counts.
      await db.delete(loginCodes).where(lt(loginCodes.expiresAt, new Date(now.getTime() - 24 * 3600_000)));
      await db
        .update(loginCodes)
        .set({ usedAt: now })
        .where(and(eq(loginCodes.tenantId, input.tenantId), eq(loginCodes.channel, input.channel), eq(loginCodes.target, target), isNull(loginCodes.usedAt)));
      await db.insert(loginCodes).values({
        id,
        tenantId: input.tenantId,
        userId: user?.id ?? null,
        channel: input.channel,
        target,
        codeHash: await hmac(id, code),
        expiresAt: new Date(now.getTime() + settings.loginCodeTtlSeconds * 1000),
      });
      if (user) {
        try {
          await sender.send(codeMessage(input.lang, target, code, Math.ceil(settings.loginCodeTtlSeconds / 60)));
        } catch (e) {
          await db.update(loginCodes).set({ usedAt: new Date() }).where(eq(loginCodes.id, id));
          log({ channel: input.channel, error: String(e) }, 'sign-in code not sent');
          throw new AppError(502, ErrorCode.LOGIN_CODE_SEND_FAILED, 'The verification code could not be sent');
        }
      }
      return { resend_after: settings.loginCodeResendSeconds, expires_in: settings.loginCodeTtlSeconds };
    },

    async verify(input) {
      channelSender(input.channel);
      const target = normalizeTarget(input.channel, input.target);
      let userId: string | null = null;
      const subject = { tenantId: input.tenantId, username: `${input.channel}:${target}`, address: input.address };
      const passed = await checkPasswordLimited(db, settings, subject, async () => {
        const [row] = await db
          .select()
          .from(loginCodes)
          .where(and(eq(loginCodes.tenantId, input.tenantId), eq(loginCodes.channel, input.channel), eq(loginCodes.target, target), isNull(loginCodes.usedAt), gt(loginCodes.expiresAt, new Date())))
          .orderBy(desc(loginCodes.createdAt))
          .limit(1);
        if (!row) return false;
        // Counted before the comparison, in one statement: parallel guesses cannot share a try.
        const [counted] = await db
          .update(loginCodes)
          .set({ attempts: sql`${loginCodes.attempts} + 1` })
          .where(and(eq(loginCodes.id, row.id), isNull(loginCodes.usedAt), lt(loginCodes.attempts, settings.loginCodeMaxAttempts)))
          .returning({ attempts: loginCodes.attempts });
        if (!counted) return false;
        const right = timingSafeEqual(Buffer.from(await hmac(row.id, input.code.trim())), Buffer.from(row.codeHash));
        if (!right || !row.userId) {
          if (counted.attempts >= settings.loginCodeMaxAttempts) await db.update(loginCodes).set({ usedAt: new Date() }).where(eq(loginCodes.id, row.id));
          return false;
        }
        // Used in one statement: of two sign-ins with one code only one gets the row.
        const [used] = await db
          .update(loginCodes)
          .set({ usedAt: new Date() })
          .where(and(eq(loginCodes.id, row.id), isNull(loginCodes.usedAt)))
          .returning({ userId: loginCodes.userId });
        userId = used?.userId ?? null;
        return userId !== null;
      });
      if (!passed || !userId) throw new AppError(400, ErrorCode.LOGIN_CODE_INVALID, 'The verification code is wrong or has expired');
      const [u] = await db.select().from(users).where(eq(users.id, userId));
      return u;
    },
  };
}
