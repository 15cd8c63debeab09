// Whether a request's body stream failed because the client went away: the
// client's doing (499), never a failure to report. Shared by the handler and the emulator.

/** Whether a body stream's error says the client went away (Node: `Error: aborted`, ECONNRESET, a premature close). */
export function isClientGone(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    error.name === 'AbortError' ||
    error.message === 'aborted' ||
    code === 'ECONNRESET' ||
    code === 'ECONNABORTED' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE'
  );
}
