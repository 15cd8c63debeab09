// connect-provider/integrations: <connect-integrations>, a whole integrations settings page, and <connect-provider>
// for its rows (both registered on import); everything the main entry exports, too.
import './element/define-integrations.js';

export * from './index.js';
export {
  ConnectIntegrations,
  DEFAULT_INTEGRATIONS_STRINGS,
  type ConnectIntegrationsLoadedDetail,
  type IntegrationDetail,
  type IntegrationEntry,
  type IntegrationsStrings,
} from './element/connect-integrations.js';
export { defineConnectIntegrations, INTEGRATIONS_TAG } from './element/define-integrations.js';
