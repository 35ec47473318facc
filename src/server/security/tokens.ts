import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { and, eq, isNull, gt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { refreshTokens } from '../db/schema';
import type { SystemRole } from '../../../schemas/auth';

export interface AccessClaims {
  sub: string;
  tid: string;
  role: SystemRole;
  /** users.token_version at issue time. */
  tv: number;
}

export interface TokenService {
  issue(claims: AccessClaims): Promise<{ access_token: string; refresh_token: string; token_type: 'Bearer'; expires_in: number }>;
  verifyAccess(token: string): Promise<AccessClaims | null>;
  /** Rotates a refresh token: the old one is revoked, a new pair returned. Null when unknown/expired/revoked. */
  consumeRefresh(token: string): Promise<string | null>;
  revokeRefresh(token: string): Promise<void>;
  revokeAllFor(userId: string): Promise<void>;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Verified access tokens kept (each until it expires): a verification is on the way to every answer. */
const VERIFIED_MAX = 5_000;

export function createTokenService(db: Db, secret: Uint8Array, accessTtl: number, refreshTtl: number): TokenService {
  const issuer = 'weft';
  // A token's signature and claims never change, so one verification holds until it expires. The
  // checks that can change (user disabled, password changed) are made per request by the caller.
  const verified = new Map<string, { claims: AccessClaims; exp: number }>();
  return {
    async issue(claims) {
      const access_token = await new SignJWT({ tid: claims.tid, role: claims.role, tv: claims.tv })
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
        tokenHash: sha256(refresh_token),
        expiresAt: new Date(Date.now() + refreshTtl * 1000),
      });
      return { access_token, refresh_token, token_type: 'Bearer' as const, expires_in: accessTtl };
    },
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
        const claims: AccessClaims = { sub: payload.sub, tid: payload.tid, role: payload.role as SystemRole, tv: Number(payload.tv ?? 0) };
        verified.set(token, { claims, exp: payload.exp * 1000 });
        if (verified.size > VERIFIED_MAX) verified.delete(verified.keys().next().value!);
        return claims;
      } catch {
        return null;
      }
    },
    async consumeRefresh(token) {
      const rows = await db
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshTokens.tokenHash, sha256(token)), isNull(refreshTokens.revokedAt), gt(refreshTokens.expiresAt, new Date())))
        .returning({ userId: refreshTokens.userId });
      return rows[0]?.userId ?? null;
    },
    async revokeRefresh(token) {
      await db.update(refreshTokens).set({ revokedAt: new Date() }).where(eq(refreshTokens.tokenHash, sha256(token)));
    },
    async revokeAllFor(userId) {
      await db
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
    },
  };
}
