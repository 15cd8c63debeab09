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

// The page's own summary, as a host would build it: the loading line always ends (loaded also fires when the list
// could not load), and every change of a row's connection updates the counts.
const count = document.querySelector('#count')!;
let texts = TEXTS.en;
/** What the count line says now: set by the events, said again in the page's language when it changes. */
let say = () => texts.loading;
list.addEventListener('connect-integrations-loaded', (event) => {
  const { integrations, error } = event.detail;
  const status = (wanted: string) => integrations.filter((i) => i.connection?.status === wanted).length;
  say = error
    ? () => texts.failed
    : () => texts.counted(status('working'), integrations.length, status('bad_credentials'));
  count.textContent = say();
});
list.addEventListener('connect-integrations-change', (event) => {
  const { connected, attention, total } = event.detail;
  say = () => texts.counted(connected, total, attention);
  count.textContent = say();
});

/** The page's texts in `lang`; `descriptions` and `strings` are properties only. */
function speak(lang: Language) {
  texts = TEXTS[lang];
  count.textContent = say();
  document.querySelector('#title')!.textContent = texts.title;
  document.querySelector('#intro')!.textContent = texts.intro;
  list.descriptions = texts.about;
  list.strings = texts.strings;
}
onLanguage(speak);
await startLanguage();
await renderHeader('vanilla');
