// Authentication as openapi.yaml's security says: X-Api-Key, Bearer JWTs
// signed with the emulator's own secret, or nothing (public operations).
import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpProblem } from '../http/http-problem.js';
import { signJwt, verifyJwt, type TokenClaims } from './jwt.js';
import type { OperationInfo } from './openapi.js';

export interface TokenRequest {
  sub?: string;
  org?: string;
  expiresInSeconds?: number;
}

export interface Auth {
  issueToken(claims?: TokenRequest): string;
  /**
   * Checks the caller of an operation (a 401 problem when it may not call it): the claims of the Bearer JWT it sent,
   * or undefined for the API key or a public operation, which no org binds.
   */
  authenticate(request: Request, op: OperationInfo): TokenClaims | undefined;
}

function digest(text: string): Buffer {
  // A string is hashed as its UTF-8 bytes.
  return createHash('sha256').update(text).digest();
}

/**
 * Whether `key` is the API key, in time that depends on neither the key's content nor its length: both are hashed
 * to 32 bytes first, and the digests compared with timingSafeEqual (which needs equal lengths).
 */
function sameKey(key: string, expectedDigest: Buffer): boolean {
  return timingSafeEqual(digest(key), expectedDigest);
}

export function createAuth(options: { apiKey: string; secret: string; now: () => Date }): Auth {
  const { apiKey, secret, now } = options;
  const apiKeyDigest = digest(apiKey);

  function issueToken(claims: TokenRequest = {}): string {
    const iat = Math.floor(now().getTime() / 1000);
    const full: TokenClaims = {
      sub: claims.sub ?? 'dev-user',
      org: claims.org ?? 'org_demo',
      iat,
      exp: iat + (claims.expiresInSeconds ?? 30 * 24 * 3600),
    };
    return signJwt(full, secret);
  }

  function authenticate(request: Request, op: OperationInfo): TokenClaims | undefined {
    // A public operation does not look at credentials at all.
    if (!op.apiKey && !op.bearer) return undefined;
    const key = request.headers.get('x-api-key');
    if (key !== null) {
      if (!op.apiKey)
        throw new HttpProblem({ status: 401, detail: `${op.operationId} accepts only a Bearer JWT, not an API key` });
      if (!sameKey(key, apiKeyDigest))
        throw new HttpProblem({ status: 401, detail: 'the X-Api-Key header does not carry a valid API key' });
      return undefined;
    }
    const authorization = request.headers.get('authorization');
    const bearer = authorization && /^Bearer\s+(.+?)\s*$/i.exec(authorization)?.[1];
    if (!bearer) {
      const detail = op.bearer
        ? 'send an API key in X-Api-Key or a Bearer JWT in Authorization'
        : 'send an API key in X-Api-Key';
      throw new HttpProblem({ status: 401, detail }, op.bearer ? { 'www-authenticate': 'Bearer' } : {});
    }
    if (!op.bearer) {
      throw new HttpProblem({
        status: 401,
        detail: `${op.operationId} accepts only an API key in X-Api-Key, not a Bearer token`,
      });
    }
    const verified = verifyJwt(bearer, secret, now().getTime());
    if ('error' in verified)
      throw new HttpProblem(
        { status: 401, detail: verified.error },
        { 'www-authenticate': 'Bearer error="invalid_token"' },
      );
    return verified.claims;
  }

  return { issueToken, authenticate };
}
