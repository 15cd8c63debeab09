// RFC 9457 Problem Details pieces that the browser and the server both use.

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The standard reason phrase of an HTTP status, or a generic one. */
export function statusTitle(status: number): string {
  return STATUS_TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');
}

/** The problem type of a request whose input breaks the rules; the handler and the emulator both answer it. */
export const VALIDATION_PROBLEM_TYPE = 'urn:connect-provider:problem:validation';
