// connect-provider/integrations: <connect-integrations>, a whole integrations settings page, and <connect-provider>
// for its rows (both registered on import); everything the main entry exports, too.
import './element/define-integrations.js';

export * from './index.js';
export {
  ConnectIntegrations,
  type ConnectIntegrationsChangeDetail,
  type ConnectIntegrationsErrorDetail,
  type ConnectIntegrationsLoadedDetail,
  type IntegrationDetail,
  type IntegrationEntry,
  type IntegrationState,
} from './element/connect-integrations.js';
export { DEFAULT_INTEGRATIONS_STRINGS, type IntegrationsStrings } from './element/integrations-strings.js';
export { defineConnectIntegrations, INTEGRATIONS_TAG } from './element/define-integrations.js';
