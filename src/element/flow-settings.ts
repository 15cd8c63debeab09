// Internal: a flow's settings from its element's attributes. The timing attributes are held within their bounds
// (timing.ts); a value outside them is used as the nearest bound, and the developer hears of it.
import type { SignIn } from '../shared/sign-in.js';
import type { Connection } from '../shared/types.js';
import { stampOf, type ConnectionRequest } from './connection-match.js';
import type { FlowConfig } from './flow.js';
import { TIMING_BOUNDS } from './timing.js';

/** The attributes a flow reads of its element: most under the names of the flow's settings. */
export type FlowAttributes = Pick<
  FlowConfig,
  'endpoint' | 'provider' | 'pollInterval' | 'timeout' | 'closedGrace' | 'popupWidth' | 'popupHeight' | 'messageOrigins'
> & { connectionId?: string; providerAppId?: string; requestHeaders?: Record<string, string> };

/** A timing attribute within its bounds; a value outside them is warned of. */
function bounded(name: keyof typeof TIMING_BOUNDS, value: number, warn: (message: string) => void): number {
  const [min, max, fallback] = TIMING_BOUNDS[name];
  const used = Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
  if (used !== value) warn(`${name} ${value} is outside ${min} to ${max} ms; using ${used}`);
  return used;
}

/**
 * The settings of a flow with oauth-connect's `body` (or generate connection's) and the popup's first text: it updates
 * the element's `connection-id`, else the caller's connection at rest (`existing`), else creates one.
 */
export function flowSettings(
  element: FlowAttributes,
  body: Record<string, unknown>,
  scheme: SignIn['way'],
  existing: Connection | null | undefined,
  popupText: string,
  warn: (message: string) => void,
): FlowConfig {
  const connectionId = element.connectionId || existing?.id;
  // An update by form verifies the connection once the platform changed it after the flow began.
  const stampAtStart = scheme === 'form' && existing && existing.id === connectionId ? stampOf(existing) : undefined;
  const request: ConnectionRequest = connectionId
    ? { mode: 'update', connectionId, stampAtStart }
    : {
        mode: 'create',
        provider: element.provider,
        workspace: body.providerWorkspaceRef as string | undefined,
        appId: element.providerAppId,
      };
  return {
    endpoint: element.endpoint,
    request,
    provider: element.provider,
    body,
    headers: { ...element.requestHeaders },
    pollInterval: bounded('pollInterval', element.pollInterval, warn),
    timeout: bounded('timeout', element.timeout, warn),
    closedGrace: bounded('closedGrace', element.closedGrace, warn),
    popupWidth: element.popupWidth,
    popupHeight: element.popupHeight,
    messageOrigins: element.messageOrigins,
    popupText,
  };
}
