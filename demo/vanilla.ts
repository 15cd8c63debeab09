import 'connect-provider/integrations';
import type { ConnectIntegrations } from 'connect-provider/integrations';
import {
  entry,
  LIST_EVENTS,
  onLanguage,
  prependLine,
  renderHeader,
  startLanguage,
  TEXTS,
  type Language,
} from './shared.js';

const list = document.querySelector<ConnectIntegrations>('connect-integrations')!;
const timeline = document.querySelector('#timeline')!;

// Listeners first, synchronously: the list reads its rows as soon as it is defined. One listener per event on the
// list hears every row: a row's events are composed and bubble, and `detail.provider` names the row.
for (const type of LIST_EVENTS) list.addEventListener(type, (event) => prependLine(timeline, entry(event)));

/** The page's texts in `lang`; `descriptions` and `strings` are properties only. */
function speak(lang: Language) {
  const texts = TEXTS[lang];
  document.querySelector('#title')!.textContent = texts.title;
  document.querySelector('#intro')!.textContent = texts.intro;
  list.descriptions = texts.about;
  list.strings = texts.strings;
}
onLanguage(speak);
await startLanguage();
await renderHeader('vanilla');
