// English, as built in: `import 'connect-provider/locales/en'` registers it (for an element whose `lang` is English
// inside a page in another language) and exports it, typed as every pack is.
import { INTEGRATIONS_ENGLISH } from '../element/integrations-strings.js';
import { registerLocale, type LocaleStrings } from '../element/locales.js';
import { ENGLISH } from '../element/strings.js';

const strings: LocaleStrings = { ...ENGLISH, ...INTEGRATIONS_ENGLISH };

registerLocale('en', strings);

export default strings;
