// The emulator's options, checked (a TypeError for an unusable one) and with
// their defaults.
import { corsPolicy, type CorsPolicy } from './cors.js';
import { hostPolicy, type HostPolicy } from './hosts.js';
import { LIMITS } from './limits.js';

/** The API key of every emulator started without one: public knowledge, so CORS answers only loopback origins. */
export const DEFAULT_API_KEY = 'dev-api-key';

export interface EmulatorOptions {
  /** The key X-Api-Key must carry (default `dev-api-key`). */
  apiKey?: string;
  /** Milliseconds from consent to the connection turning working / bad_credentials (default 1500). */
  verifyDelay?: number;
  /**
   * Keep state in this JSON file across restarts (written atomically; a change is on disk before its answer; one
   * emulator per file, by an exclusive lock). Default: memory only.
   */
  dataFile?: string;
  /**
   * The origin browsers reach the emulator at, for the URLs it hands out (consent links, problems' `instance`,
   * `Location`). Default: the address listen() serves at (on 0.0.0.0 or ::, the address each connection reached),
   * or, when mounted in another server, the address that server accepted the connection on. Never the Host header.
   */
  publicUrl?: string;
  /** How oauth-connect and oauth-update answer the URL: a JSON string (default, as the spec) or text/plain (as the real service). */
  urlFormat?: 'json' | 'text';
  /** Secret that signs Bearer JWTs. Default: a random one, kept in the data file (or per emulator without one). */
  jwtSecret?: string;
  /** Largest request body in bytes (default 1 MiB). */
  bodyLimit?: number;
  /** Milliseconds a request body may take to arrive whole, from the start of its read (default 10000): 408 after. */
  bodyDeadline?: number;
  /**
   * Origins allowed to call the emulator from a browser (CORS); `'*'` (alone or in the list) is any. Default: with
   * the default API key (public knowledge), loopback origins only (http(s)://localhost, *.localhost, 127.x, [::1],
   * any port) and no private-network access; with a key of one's own, any origin.
   */
  corsOrigins?: readonly string[] | '*';
  /**
   * Host names (or addresses) the emulator answers besides loopback ones, on purpose; `'*'` is any. Default: with the
   * default API key, loopback names only (localhost, *.localhost, 127.x, [::1]) and publicUrl's host, so that no web
   * page drives the emulator by DNS rebinding (any other Host is a 403 problem); with a key of one's own, any.
   */
  allowedHosts?: readonly string[] | '*';
  /** The clock (for tests). */
  now?: () => Date;
}

export interface ResolvedEmulatorOptions {
  apiKey: string;
  verifyDelayMs: number;
  urlFormat: 'json' | 'text';
  bodyLimit: number;
  bodyDeadlineMs: number;
  now: () => Date;
  /** The origin of `publicUrl`, when given. */
  publicUrl: string | undefined;
  cors: CorsPolicy;
  hosts: HostPolicy;
}

export function resolveEmulatorOptions(options: EmulatorOptions): ResolvedEmulatorOptions {
  const apiKey = options.apiKey ?? DEFAULT_API_KEY;
  if (apiKey === '') throw new TypeError('connect-provider emulator: apiKey must not be empty');
  const verifyDelayMs = options.verifyDelay ?? 1500;
  if (!Number.isFinite(verifyDelayMs) || verifyDelayMs < 0) {
    throw new TypeError('connect-provider emulator: verifyDelay must be a number of milliseconds >= 0');
  }
  const bodyDeadlineMs = options.bodyDeadline ?? LIMITS.bodyDeadlineMs;
  if (!Number.isFinite(bodyDeadlineMs) || bodyDeadlineMs <= 0) {
    throw new TypeError('connect-provider emulator: bodyDeadline must be a number of milliseconds > 0');
  }
  const urlFormat = options.urlFormat ?? 'json';
  if (urlFormat !== 'json' && urlFormat !== 'text')
    throw new TypeError("connect-provider emulator: urlFormat is 'json' or 'text'");
  if (options.jwtSecret !== undefined && options.jwtSecret.length < 16) {
    throw new TypeError('connect-provider emulator: jwtSecret must be 16 characters or more');
  }
  let publicUrl: string | undefined;
  if (options.publicUrl !== undefined) {
    const parsed = new URL(options.publicUrl);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new TypeError('connect-provider emulator: publicUrl is an http(s) URL');
    publicUrl = parsed.origin;
  }
  return {
    apiKey,
    verifyDelayMs,
    urlFormat,
    bodyLimit: options.bodyLimit ?? LIMITS.bodyBytes,
    bodyDeadlineMs,
    now: options.now ?? (() => new Date()),
    publicUrl,
    cors: corsPolicy(options.corsOrigins, apiKey === DEFAULT_API_KEY),
    hosts: hostPolicy(options.allowedHosts, apiKey === DEFAULT_API_KEY, publicUrl),
  };
}
