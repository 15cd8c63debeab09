// What of the platform's ProviderInfo reaches the browser: an allow-list of
// the fields the element shows or asks for, each kept only with its type and a
// bounded length, URLs only when the browser may load them. Anything else the
// platform sends (its token and auth URLs, labels, other metadata, fields a
// future version adds) stays on the server.
import { isRecord } from '../shared/json.js';
import type { BrowserProvider, CustomInput, ProviderInput, ProviderMediaUrls } from '../shared/provider.js';
import { isUsableUrl } from './platform-url.js';

/** Bounds of the answer, so a hostile platform cannot make it large. */
export const PROVIDER_LIMITS = { name: 128, text: 1024, url: 2048, inputs: 20, options: 100 } as const;

/**
 * Byte caps (UTF-8 of the JSON) on what reaches the browser: one provider's view (the fields above at their limits
 * could make 4 MB), and the whole answer of GET {endpoint}/integrations. The provider cache holds views only, so it
 * holds at most PROVIDER_CACHE.maxEntries × `view` bytes (8 MB).
 */
export const PROVIDER_BYTES = { view: 16 * 1024, integrations: 1024 * 1024 } as const;

/** The bytes of a value's JSON, in UTF-8. */
export function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).byteLength;
}

function field(value: unknown, key: string): unknown {
  return isRecord(value) && Object.prototype.hasOwnProperty.call(value, key) ? value[key] : undefined;
}

function text(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.length <= max ? value : undefined;
}

function url(value: unknown, platformIsLoopback: boolean): string | undefined {
  if (typeof value !== 'string' || value.length > PROVIDER_LIMITS.url) return undefined;
  const parsed = isUsableUrl(value, platformIsLoopback);
  return parsed && parsed.href.length <= PROVIDER_LIMITS.url ? parsed.href : undefined;
}

function media(value: unknown, platformIsLoopback: boolean): ProviderMediaUrls | undefined {
  if (!isRecord(value)) return undefined;
  const out: ProviderMediaUrls = {};
  const iconURL = url(field(value, 'iconURL'), platformIsLoopback);
  const logoURL = url(field(value, 'logoURL'), platformIsLoopback);
  if (iconURL) out.iconURL = iconURL;
  if (logoURL) out.logoURL = logoURL;
  return iconURL || logoURL ? out : undefined;
}

function input(value: unknown, platformIsLoopback: boolean): ProviderInput | undefined {
  const name = text(field(value, 'name'), PROVIDER_LIMITS.name);
  if (!name) return undefined;
  const out: ProviderInput = { name };
  for (const key of ['displayName', 'prompt', 'defaultValue'] as const) {
    const kept = text(field(value, key), PROVIDER_LIMITS.text);
    if (kept !== undefined) out[key] = kept;
  }
  const docsURL = url(field(value, 'docsURL'), platformIsLoopback);
  if (docsURL) out.docsURL = docsURL;
  return out;
}

/** One `customOpts.inputs` item: its name, labels, docs link, field type and the options of a choice. */
function customInput(value: unknown, platformIsLoopback: boolean): CustomInput | undefined {
  const name = text(field(value, 'name'), PROVIDER_LIMITS.name);
  if (!name) return undefined;
  const out: CustomInput = { name };
  for (const key of ['displayName', 'prompt'] as const) {
    const kept = text(field(value, key), PROVIDER_LIMITS.text);
    if (kept !== undefined) out[key] = kept;
  }
  const docsURL = url(field(value, 'docsURL'), platformIsLoopback);
  if (docsURL) out.docsURL = docsURL;
  const fieldType = text(field(value, 'fieldType'), PROVIDER_LIMITS.name);
  if (fieldType) out.fieldType = fieldType;
  const options = field(value, 'options');
  if (Array.isArray(options)) {
    out.options = options.slice(0, PROVIDER_LIMITS.options).flatMap((option) => {
      const value = text(field(option, 'value'), PROVIDER_LIMITS.text);
      const label = text(field(option, 'label'), PROVIDER_LIMITS.text);
      return value === undefined ? [] : [{ value, label: label ?? value }];
    });
  }
  return out;
}

/** The options object `key` of the info with only its docs URL, when it has a usable one. */
function docsOnly(info: unknown, key: string, platformIsLoopback: boolean): { docsURL: string } | undefined {
  const docsURL = url(field(field(info, key), 'docsURL'), platformIsLoopback);
  return docsURL ? { docsURL } : undefined;
}

/**
 * The browser's view of a provider: only the allow-listed fields. `name` is the platform's when it is a bounded
 * string, else the name asked for.
 */
export function toBrowserProvider(info: unknown, asked: string, platformIsLoopback: boolean): BrowserProvider {
  const out: BrowserProvider = { name: text(field(info, 'name'), PROVIDER_LIMITS.name) || asked };
  const displayName = text(field(info, 'displayName'), PROVIDER_LIMITS.text);
  if (displayName !== undefined) out.displayName = displayName;
  const authType = text(field(info, 'authType'), PROVIDER_LIMITS.name);
  if (authType !== undefined) out.authType = authType;
  const mediaInfo = field(info, 'media');
  const regular = media(field(mediaInfo, 'regular'), platformIsLoopback);
  const darkMode = media(field(mediaInfo, 'darkMode'), platformIsLoopback);
  if (regular || darkMode) out.media = { ...(regular ? { regular } : {}), ...(darkMode ? { darkMode } : {}) };
  const oauth2 = field(info, 'oauth2Opts');
  const oauth2Opts: NonNullable<BrowserProvider['oauth2Opts']> = {
    ...docsOnly(info, 'oauth2Opts', platformIsLoopback),
  };
  const workspace = field(oauth2, 'explicitWorkspaceRequired');
  if (typeof workspace === 'boolean') oauth2Opts.explicitWorkspaceRequired = workspace;
  const grantType = text(field(oauth2, 'grantType'), PROVIDER_LIMITS.name);
  if (grantType) oauth2Opts.grantType = grantType;
  if (Object.keys(oauth2Opts).length) out.oauth2Opts = oauth2Opts;
  const apiKeyOpts = docsOnly(info, 'apiKeyOpts', platformIsLoopback);
  if (apiKeyOpts) out.apiKeyOpts = apiKeyOpts;
  const basic = field(info, 'basicOpts');
  if (isRecord(basic)) {
    const basicOpts: NonNullable<BrowserProvider['basicOpts']> = { ...docsOnly(info, 'basicOpts', platformIsLoopback) };
    const asBasic = field(basic, 'apiKeyAsBasic');
    if (typeof asBasic === 'boolean') basicOpts.apiKeyAsBasic = asBasic;
    const fieldUsed = field(field(basic, 'apiKeyAsBasicOpts'), 'fieldUsed');
    if (fieldUsed === 'username' || fieldUsed === 'password') basicOpts.apiKeyAsBasicOpts = { fieldUsed };
    out.basicOpts = basicOpts;
  }
  const customInputs = field(field(info, 'customOpts'), 'inputs');
  if (Array.isArray(customInputs)) {
    const inputs = customInputs
      .slice(0, PROVIDER_LIMITS.inputs)
      .map((item) => customInput(item, platformIsLoopback))
      .filter((item): item is CustomInput => item !== undefined);
    out.customOpts = { inputs };
  }
  const items = field(field(info, 'metadata'), 'input');
  if (Array.isArray(items)) {
    // Bounded before anything is read: a list of a million items costs as much as one of 20.
    const inputs = items
      .slice(0, PROVIDER_LIMITS.inputs)
      .map((item) => input(item, platformIsLoopback))
      .filter((item): item is ProviderInput => item !== undefined);
    out.metadata = { input: inputs };
  }
  return out;
}
