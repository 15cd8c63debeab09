// Bearer JWTs made by hand for the emulator's tests: any header and claims, signed HS256 with the secret the
// test's emulator is given (or another).
import { createHmac } from 'node:crypto';

/** The jwtSecret of the tests' emulators. */
export const SECRET = 'emulator-tests-secret-0123456789';

export const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** `data` and its HS256 signature with `secret`. */
export const signed = (data: string, secret = SECRET) =>
  `${data}.${createHmac('sha256', secret).update(data).digest('base64url')}`;

/** A JWT with the given header and claims, signed HS256 with `secret` (whatever its header says). */
export const jwt = (header: object, claims: object, secret = SECRET) => signed(`${b64(header)}.${b64(claims)}`, secret);

export const HS256 = { alg: 'HS256', typ: 'JWT' };
/** The tests' clock: the tokens are issued at this time. */
export const NOW = Date.parse('2026-06-01T12:00:00Z');
export const iat = Math.floor(NOW / 1000);
export const CLAIMS = { sub: 'dev-user', org: 'org_demo', iat, exp: iat + 3600 };
