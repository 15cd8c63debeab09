// connect-provider/api: the typed platform client and its types.
export { createPlatformClient } from './client.js';
export type { PlatformClient, PlatformClientOptions, RetryOptions, CallOptions } from './client.js';
export {
  PlatformError,
  ProblemError,
  PlatformRequestError,
  normalizeProblem,
  problemFromResponse,
  statusTitle,
  PROBLEM_CONTENT_TYPE,
} from './problem.js';
export * from './types.js';
export type { paths, components, operations } from './schema.js';
