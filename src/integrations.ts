// connect-provider/integrations: <connect-integrations>, a whole integrations settings page, and <connect-provider>
// for its rows (both registered on import); everything the main entry exports, too.
import './element/define-integrations.js';

export * from './index.js';
export { ConnectIntegrations } from './element/connect-integrations.js';
export type {
  ConnectIntegrationsChangeDetail,
  ConnectIntegrationsErrorDetail,
  ConnectIntegrationsLoadedDetail,
  IntegrationDetail,
  IntegrationEntry,
  IntegrationState,
} from './element/integrations-events.js';
export { DEFAULT_INTEGRATIONS_STRINGS, type IntegrationsStrings } from './element/integrations-strings.js';
export { defineConnectIntegrations, INTEGRATIONS_TAG } from './element/define-integrations.js';
