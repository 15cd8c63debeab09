// connect-provider/api: the typed platform client and its types.
export { createPlatformClient } from './client.js';
export type { PlatformClient, PlatformClientOptions, RetryOptions, CallOptions } from './client.js';
export { PlatformError, ProblemError, PlatformRequestError } from './errors.js';
export * from '../shared/types.js';
export type { paths, components, operations } from '../shared/schema.js';
