// The documentation's (docs/element.md) import for <connect-integrations> in a Vue app: both tags registered, both
// declared in Vue's GlobalComponents.
// readme:start
import 'connect-provider/integrations';
import type {} from 'connect-provider/vue';
// readme:end
