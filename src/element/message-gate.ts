// Internal: which `message` events count for a flow (docs/element.md, "The
// popup"). A message from the flow's own popup is trusted as it is; one from
// a trusted origin's other window only claims a connection, which the backend
// must confirm; anything else is ignored.

/** What a completion message says (the platform's callback page posts one of two shapes). */
export type Completion = { connectionId: string } | { error: string };

export function readCompletion(data: unknown): Completion | undefined {
  const message = data as { eventType?: unknown; data?: { connection?: unknown; error?: unknown; message?: unknown } };
  const inner = message?.data;
  if (message?.eventType === 'AUTHORIZATION_SUCCEEDED') {
    const id = inner?.connection;
    return typeof id === 'string' && id ? { connectionId: id } : undefined;
  }
  if (message?.eventType === 'AUTHORIZATION_FAILED') {
    const text = inner?.error ?? inner?.message;
    return { error: typeof text === 'string' && text ? text : 'the authorization failed' };
  }
  return undefined;
}

/**
 * What the flow does with a message: `take` its connection (the own popup's success), `confirm` the connection it
 * claims through the backend first (a trusted origin's other window), `fail` (the own popup reports a failed or
 * denied consent), or `ignore` it.
 */
export type Verdict = 'take' | 'confirm' | 'fail' | 'ignore';

export interface MessageContext {
  /** The message comes from the flow's own popup. */
  fromOwnPopup: boolean;
  /** Its origin is one the flow trusts (the backend's messageOrigin, `message-origins`). */
  trustedOrigin: boolean;
  /** The flow waits for its popup's outcome. */
  waiting: boolean;
  /** The connection the flow already knows, if any: other IDs are then ignored. */
  knownId?: string;
}

export function judgeMessage(completion: Completion | undefined, context: MessageContext): Verdict {
  const { fromOwnPopup, trustedOrigin, waiting, knownId } = context;
  if ((!fromOwnPopup && !trustedOrigin) || !completion || !waiting) return 'ignore';
  // Only the flow's own popup can report a failure: no backend can confirm one.
  if ('error' in completion) return fromOwnPopup ? 'fail' : 'ignore';
  if (knownId && completion.connectionId !== knownId) return 'ignore';
  return fromOwnPopup ? 'take' : 'confirm';
}
