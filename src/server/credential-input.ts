// What the browser may send as a user's credential (POST and PATCH of
// {endpoint}/connections): exactly one kind, of the platform's shape, each
// value a bounded string, checked against the provider's scheme. A problem
// about a credential names its field and never echoes its value.
import { invalidRequest, type HttpProblem } from '../http/http-problem.js';
import { isRecord } from '../shared/json.js';
import type { BrowserProvider } from '../shared/provider.js';
import {
  CREDENTIAL_KINDS,
  CREDENTIALS,
  MAX_CREDENTIAL_LENGTH,
  signInOf,
  type Credential,
  type CredentialKind,
} from '../shared/sign-in.js';

/** The most inputs a `customAuth` credential may hold. */
export const MAX_CUSTOM_INPUTS = 20;

function refused(name: string, detail: string): HttpProblem {
  return invalidRequest(`${name} ${detail}`, [{ detail, in: 'body', name }]);
}

function credentialText(value: unknown, name: string): string {
  if (typeof value !== 'string') throw refused(name, 'must be a string');
  if (value.length > MAX_CREDENTIAL_LENGTH) throw refused(name, `is longer than ${MAX_CREDENTIAL_LENGTH} characters`);
  return value;
}

/** The one credential kind `body` holds, checked and copied (nothing else of the body); undefined when none. */
export function parseCredential(
  body: Record<string, unknown>,
): { kind: CredentialKind; credential: Credential } | undefined {
  const sent = CREDENTIAL_KINDS.filter((kind) => body[kind] !== undefined && body[kind] !== null);
  if (sent.length > 1)
    throw refused(sent[1], `is a second credential: send only one of ${CREDENTIAL_KINDS.join(', ')}`);
  const kind = sent[0];
  if (!kind) return undefined;
  const value = body[kind];
  // What the kind holds, and its fields: shared/sign-in.ts's CREDENTIALS.
  const { holds, fields, scopes: takesScopes } = CREDENTIALS[kind];
  if (holds === 'text') return { kind, credential: { [kind]: credentialText(value, kind) } as Credential };
  if (!isRecord(value)) throw refused(kind, 'must be an object');
  const out: Record<string, unknown> = {};
  if (holds === 'inputs') {
    const names = Object.keys(value);
    if (names.length > MAX_CUSTOM_INPUTS) throw refused(kind, `has more than ${MAX_CUSTOM_INPUTS} inputs`);
    for (const name of names) out[name] = credentialText(value[name], `${kind}.${name}`);
  } else {
    for (const field of fields) out[field] = credentialText(value[field], `${kind}.${field}`);
    const scopes = value.scopes;
    if (takesScopes && scopes !== undefined && scopes !== null) {
      if (!Array.isArray(scopes) || scopes.length > MAX_CUSTOM_INPUTS)
        throw refused(`${kind}.scopes`, 'must be a short array of strings');
      out.scopes = scopes.map((scope, i) => credentialText(scope, `${kind}.scopes[${i}]`));
    }
  }
  return { kind, credential: { [kind]: out } as Credential };
}

/**
 * Checks that the credential is the kind the provider's scheme takes (a provider that signs in through consent, or
 * takes nothing, takes none); a wrong kind is a 400 naming the field sent, or the field missing.
 */
export function checkCredentialKind(info: BrowserProvider, sent: CredentialKind | undefined): void {
  const signIn = signInOf(info);
  const wanted = signIn.way === 'form' ? signIn.kind : undefined;
  // A provider that signs in through consent is connected through oauth-connect, with or without a credential here.
  if (signIn.way === 'popup' && sent === undefined)
    throw refused('provider', `${info.name} signs in through its consent page (oauth-connect)`);
  if (sent === wanted) return;
  if (sent === undefined) throw refused(wanted!, `is required: ${info.name} signs in with it`);
  const how =
    signIn.way === 'popup'
      ? 'signs in through its consent page (oauth-connect)'
      : wanted
        ? `takes ${wanted}`
        : 'takes no credential';
  throw refused(sent, `is not what ${info.name} takes: it ${how}`);
}

/** The pairs of fields a platform could send together as basic auth (`first:second`, base64): user and password, client. */
const PAIRS = [
  ['username', 'password'],
  ['clientId', 'clientSecret'],
] as const;

/**
 * The secrets of a credential, to hide wherever a platform's text could repeat them: each value, and each pair basic
 * auth carries (`username:password`, `clientId:clientSecret`), each once and none empty. The hider (secret-hider.ts)
 * hides each in every encoding.
 */
export function secretForms(credential: Credential): string[] {
  const forms = credentialValues(credential);
  for (const kind of CREDENTIAL_KINDS) {
    const fields: unknown = credential[kind];
    if (!isRecord(fields)) continue;
    for (const [first, second] of PAIRS) {
      if (typeof fields[first] === 'string' && typeof fields[second] === 'string')
        forms.push(`${fields[first]}:${fields[second]}`);
    }
  }
  return [...new Set(forms)];
}

/** Every credential value, to hide them wherever a text could repeat them. */
export function credentialValues(credential: Credential): string[] {
  const values: string[] = [];
  const collect = (value: unknown) => {
    if (typeof value === 'string') values.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (isRecord(value)) Object.values(value).forEach(collect);
  };
  collect(credential);
  return values.filter((value) => value !== '');
}
