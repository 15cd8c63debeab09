// The server's failures, told to the app's onError option (console.error by
// default): one line, and a plain value of what was thrown, both without the
// API key or the credential the request carried.
import { pathnameOf } from '../http/http-problem.js';
import type { ConnectHandlerErrorInfo, ConnectHandlerOptions } from './options.js';
import type { ServerFault } from './handler-problems.js';
import { createRedactor, reportedError } from './redact.js';
import { createSecretHider } from './secret-hider.js';

export type Reporter = (fault: ServerFault, request: Request, status: number) => void;

export function createReporter(apiKey: string, onError: ConnectHandlerOptions['onError']): Reporter {
  const log = onError ?? ((info: ConnectHandlerErrorInfo) => console.error(`[connect-provider] ${info.message}`));
  return function report(fault, request, status) {
    // The key as it is and URL-encoded; a credential the request carried in every form (secret-hider.ts).
    const redactKey = createRedactor([apiKey]);
    const hide = createSecretHider(fault.secrets);
    const redact = (text: string) => hide(redactKey(text));
    const method = request.method;
    const path = pathnameOf(request) ?? '';
    const message = redact(`${method} ${path.slice(0, 200)} answered ${status}: ${fault.logMessage}`).replace(
      /[\r\n]+/g,
      ' ',
    );
    try {
      const result: unknown = log({
        kind: fault.kind,
        message,
        status,
        method: redact(method),
        path: redact(path),
        error: reportedError(fault.error, redact),
      });
      // An async logger's rejection is swallowed too: never an unhandled rejection.
      if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function')
        Promise.resolve(result).catch(() => {});
    } catch {
      // Internal: a failing logger must not change the answer.
    }
  };
}
