// HS256 JSON Web Tokens for the emulator's Bearer scheme (RFC 7519), with
// node:crypto only. Claims: sub, org (the org the token may act for), iat, exp.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface TokenClaims {
  sub: string;
  org: string;
  iat: number;
  exp: number;
  [claim: string]: unknown;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function sign(data: string, secret: string): string {
  return createHmac('sha256', secret).update(data).digest('base64url');
}

export function signJwt(claims: TokenClaims, secret: string): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${HEADER}.${payload}.${sign(`${HEADER}.${payload}`, secret)}`;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The token's claims, or a reason it is refused. */
export function verifyJwt(token: string, secret: string, nowMs: number): { claims: TokenClaims } | { error: string } {
  const parts = token.split('.');
  if (parts.length !== 3) return { error: 'the Bearer token is not a JWT' };
  const [header, payload, signature] = parts;
  let decodedHeader: unknown;
  let decodedClaims: unknown;
  try {
    decodedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    decodedClaims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    // Not JSON: what did not parse stays undefined, and is refused just below as no JSON object.
  }
  // A JOSE header and a claims set are JSON objects (RFC 7515 4, RFC 7519 7.2): null, a number, an array or a
  // string parse too, and are no JWT.
  if (!isJsonObject(decodedHeader) || !isJsonObject(decodedClaims)) return { error: 'the Bearer token is not a JWT' };
  const claims: Partial<TokenClaims> = decodedClaims;
  if (decodedHeader.alg !== 'HS256') return { error: 'the Bearer token is not signed with HS256' };
  const expected = Buffer.from(sign(`${header}.${payload}`, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { error: 'the Bearer token signature is not valid' };
  }
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= nowMs) return { error: 'the Bearer token has expired' };
  if (typeof claims.org !== 'string' || typeof claims.sub !== 'string')
    return { error: 'the Bearer token lacks the org or sub claim' };
  return { claims: claims as TokenClaims };
}
