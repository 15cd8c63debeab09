// Internal: the flow's popup window: opened inside the click, centred on the
// opener, told what is happening while the URL is fetched, and read for the
// platform's completion message (docs/choices.md).

let popups = 0;

/** A window name of one flow only: two flows never share, reuse or close each other's popup. */
export const popupName = (): string => `connect-provider-${++popups}-${Math.random().toString(36).slice(2)}`;

/** The popup, or null when the browser opens none: blocked, or refused with an exception (a sandboxed frame). */
export function openPopup(url: string, name: string, width: number, height: number): Window | null {
  const left = Math.round(screenX + (outerWidth - width) / 2);
  const top = Math.round(screenY + (outerHeight - height) / 2);
  try {
    return open(url, name, `popup,width=${width},height=${height},left=${left},top=${top}`);
  } catch {
    return null;
  }
}

/** Writes a short, readable placeholder into the blank popup while the backend answers (as text, never HTML). */
export function writePlaceholder(popup: Window, text: string): void {
  try {
    const doc = popup.document;
    doc.title = text;
    const body = doc.body;
    body.textContent = text;
    body.style.cssText =
      'margin:0;min-height:100vh;display:grid;place-items:center;font:1.125rem/1.5 system-ui,sans-serif;color:#374151;background:#fff';
  } catch {
    // not same-origin any more: nothing to write
  }
}

/** Whether there is a popup and it reads closed (a severed one reads closed too). A blocked popup is none. */
export function isClosed(popup: Window | null): boolean {
  try {
    return !!popup && popup.closed;
  } catch {
    return true;
  }
}

export function closePopup(popup: Window | null): void {
  try {
    if (popup && !popup.closed) popup.close();
  } catch {
    // a severed popup cannot be closed from here
  }
}

/** What a completion message says (the platform's callback page posts one of two shapes): a connection, or an error. */
export type Completion = { connectionId: string } | { error: string } | undefined;

export function readCompletion(data: unknown): Completion {
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
