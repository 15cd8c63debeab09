// The server's failures, told to the app's onError option (console.error by
// default): one line, and a copy of the error, both without the API key.
import { pathnameOf } from '../http/http-problem.js';
import type { ConnectHandlerErrorInfo, ConnectHandlerOptions } from './options.js';
import type { ServerFault } from './handler-problems.js';
import { createRedactor } from './redact.js';

export type Reporter = (fault: ServerFault, request: Request, status: number) => void;

export function createReporter(apiKey: string, onError: ConnectHandlerOptions['onError']): Reporter {
  const redact = createRedactor(apiKey);
  const log = onError ?? ((info: ConnectHandlerErrorInfo) => console.error(`[connect-provider] ${info.message}`));
  return function report(fault, request, status) {
    const method = request.method;
    const path = pathnameOf(request) ?? '';
    const message = redact(`${method} ${path.slice(0, 200)} answered ${status}: ${fault.logMessage}`).replace(
      /[\r\n]+/g,
      ' ',
    );
    try {
      // The error as thrown may hold the key where the platform echoed it: onError gets a redacted copy.
      const result: unknown = log({
        kind: fault.kind,
        message,
        status,
        method: redact(method),
        path: redact(path),
        error: redact(fault.error),
      });
      // An async logger's rejection is swallowed too: never an unhandled rejection.
      if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function')
        Promise.resolve(result).catch(() => {});
    } catch {
      // Internal: a failing logger must not change the answer.
    }
  };
}
