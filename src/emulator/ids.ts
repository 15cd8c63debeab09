// New IDs, secrets and tokens of the emulator's resources: random, with a readable prefix.
import { randomBytes } from 'node:crypto';
import type { StoredConnection } from './state.js';

/** A short random ID with a readable prefix, e.g. conn_4f9c2a7d1e0b. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** A random opaque token. */
export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(18).toString('base64url')}`;
}

export const TOKEN_LIFETIME_MS = 60 * 60 * 1000;

export function issueTokens(scopes: string[], now: Date): NonNullable<StoredConnection['tokens']> {
  const issuedAt = now.toISOString();
  return {
    accessToken: {
      token: newSecret('at'),
      issuedAt,
      expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_MS).toISOString(),
    },
    refreshToken: { token: newSecret('rt'), issuedAt },
    scopes,
  };
}

/** A random secret for signing Bearer JWTs. */
export function newTokenSecret(): string {
  return randomBytes(32).toString('base64url');
}
