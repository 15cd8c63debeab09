// The locale snippets of docs/element.md, then cases that must not compile.
// readme:start
import 'connect-provider/locales/ar';
import de from 'connect-provider/locales/de';
import { registerLocale } from 'connect-provider';

const element = document.createElement('connect-provider');
element.strings = { ...de, connect: '{provider} anbinden' };

registerLocale('fi', { connect: 'Yhdistä {provider}', working: 'Yhdistetty: {provider}' });
// readme:end

// @ts-expect-error: a text keeps the English placeholders
registerLocale('xx', { connect: 'Yhdistä' });
// @ts-expect-error: no such text
registerLocale('xx', { conect: 'x {provider}' });
// @ts-expect-error: a pack's texts are strings
registerLocale('xx', { connect: 1 });

export { element };
