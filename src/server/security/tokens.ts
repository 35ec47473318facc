import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authSessions, refreshTokens } from '../db/schema';
import { forgetCallers } from '../auth';
import type { SystemRole } from '../../../schemas/auth';

export interface AccessClaims {
  sub: string;
  tid: string;
  role: SystemRole;
  /** users.token_version at issue time. */
  tv: number;
  /** The sign-in session (auth_sessions.id): the token is refused once the session is revoked. */
  sid: string;
}

export interface IssuedPair {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

/** Whose a refresh token is: its user and its session (token family). */
export interface RefreshOwner {
  userId: string;
  sessionId: string;
}

export interface TokenService {
  /** Signs in: a new session with its first access and refresh tokens. */
  startSession(claims: Omit<AccessClaims, 'sid'>): Promise<IssuedPair>;
  /** A new pair in an existing session (after {@link TokenService.consumeRefresh}). */
  issue(claims: AccessClaims): Promise<IssuedPair>;
  verifyAccess(token: string): Promise<AccessClaims | null>;
  /**
   * Rotates a refresh token: marks it used and answers its user and session; null when it is unknown,
   * expired, already used or its session was revoked. A used token presented again means two holders
   * (one of them a thief): its whole session is revoked, the tokens its first use issued included.
   */
  consumeRefresh(token: string): Promise<RefreshOwner | null>;
  /** The user and session of a refresh token in any state (used, revoked, expired); null when unknown. */
  ownerOfRefresh(token: string): Promise<RefreshOwner | null>;
  /** Ends a session of the user: its refresh tokens and, at once, its access tokens. False when it is not theirs. */
  revokeSession(sessionId: string, userId: string): Promise<boolean>;
  /** Ends every session of the user (password change, disable). */
  revokeAllFor(userId: string): Promise<void>;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Verified access tokens kept (each until it expires): a verification is on the way to every answer. */
const VERIFIED_MAX = 5_000;

export function createTokenService(db: Db, secret: Uint8Array, accessTtl: number, refreshTtl: number): TokenService {
  const issuer = 'weft';
  // A token's signature and claims never change, so one verification holds until it expires. The
  // checks that can change (user disabled, password changed, session ended) are made per request by
  // the caller (auth.ts).
  const verified = new Map<string, { claims: AccessClaims; exp: number }>();

  async function issue(claims: AccessClaims): Promise<IssuedPair> {
    const access_token = await new SignJWT({ tid: claims.tid, role: claims.role, tv: claims.tv, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setIssuer(issuer)
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(`${accessTtl}s`)
      .sign(secret);
    const refresh_token = randomBytes(32).toString('base64url');
    await db.insert(refreshTokens).values({
      id: randomUUID(),
      userId: claims.sub,
      sessionId: claims.sid,
      tokenHash: sha256(refresh_token),
      expiresAt: new Date(Date.now() + refreshTtl * 1000),
    });
    return { access_token, refresh_token, token_type: 'Bearer' as const, expires_in: accessTtl };
  }

  /** Revokes a session and every refresh token of it; the process's cached callers go too. */
  async function endSession(sessionId: string): Promise<void> {
    const now = new Date();
    await db.update(authSessions).set({ revokedAt: now }).where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
    await db.update(refreshTokens).set({ revokedAt: now }).where(and(eq(refreshTokens.sessionId, sessionId), isNull(refreshTokens.revokedAt)));
    forgetCallers();
  }

  return {
    async startSession(claims) {
      const sid = randomUUID();
      await db.insert(authSessions).values({ id: sid, userId: claims.sub });
      return issue({ ...claims, sid });
    },
    issue,
    async verifyAccess(token) {
      const hit = verified.get(token);
      if (hit) {
        if (Date.now() < hit.exp) return hit.claims;
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, secret, { issuer, algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || typeof payload.tid !== 'string' || typeof payload.exp !== 'number') return null;
        // Tokens from before sessions existed carry no sid: refused, the client refreshes once.
        if (typeof payload.sid !== 'string' || !UUID_RE.test(payload.sid)) return null;
        const claims: AccessClaims = {
          sub: payload.sub,
          tid: payload.tid,
          role: payload.role as SystemRole,
          tv: Number(payload.tv ?? 0),
          sid: payload.sid,
        };
        verified.set(token, { claims, exp: payload.exp * 1000 });
        if (verified.size > VERIFIED_MAX) verified.delete(verified.keys().next().value!);
        return claims;
      } catch {
        return null;
      }
    },
    async consumeRefresh(token) {
      const hash = sha256(token);
      const now = new Date();
      // One statement: of two concurrent uses of the same token only one gets the row.
      const rows = await db
        .update(refreshTokens)
        .set({ revokedAt: now })
        .where(
          and(
            eq(refreshTokens.tokenHash, hash),
            isNull(refreshTokens.revokedAt),
            gt(refreshTokens.expiresAt, now),
            sql`not exists (select 1 from ${authSessions} where ${authSessions.id} = ${refreshTokens.sessionId} and ${authSessions.revokedAt} is not null)`,
          ),
        )
        .returning({ userId: refreshTokens.userId, sessionId: refreshTokens.sessionId });
      if (rows[0]) return rows[0];
      // A token used (or revoked) before, presented again: end its family. The session may have
      // been revoked already (logout, an earlier reuse); ending it again changes nothing.
      const [known] = await db
        .select({ sessionId: refreshTokens.sessionId, revokedAt: refreshTokens.revokedAt })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hash));
      if (known?.revokedAt) await endSession(known.sessionId);
      return null;
    },
    async ownerOfRefresh(token) {
      const [row] = await db
        .select({ userId: refreshTokens.userId, sessionId: refreshTokens.sessionId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, sha256(token)));
      return row ?? null;
    },
    async revokeSession(sessionId, userId) {
      if (!UUID_RE.test(sessionId)) return false;
      const [mine] = await db
        .select({ id: authSessions.id })
        .from(authSessions)
        .where(and(eq(authSessions.id, sessionId), eq(authSessions.userId, userId)));
      if (!mine) return false;
      await endSession(sessionId);
      return true;
    },
    async revokeAllFor(userId) {
      const now = new Date();
      await db.update(authSessions).set({ revokedAt: now }).where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)));
      await db
        .update(refreshTokens)
        .set({ revokedAt: now })
        .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
      forgetCallers();
    },
  };
}
