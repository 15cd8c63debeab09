import 'connect-provider';
import type { ConnectProvider } from 'connect-provider';
import { entry, EVENTS, onLanguage, prependLine, renderHeader, startLanguage, TEXTS, type Language } from './shared.js';

// Listeners first, synchronously: each element reads its connection as soon as it is defined.
const timeline = document.querySelector('#timeline')!;
for (const el of document.querySelectorAll<ConnectProvider>('connect-provider'))
  for (const type of EVENTS) el.addEventListener(type, (event) => prependLine(timeline, entry(event, el.provider)));

/** The page's texts in `lang`. `strings` is a property only: here it names Zendesk's input alone, a subdomain. */
function speak(lang: Language) {
  const texts = TEXTS[lang];
  document.querySelector('#title')!.textContent = texts.title;
  document.querySelector('#intro')!.textContent = texts.intro;
  for (const span of document.querySelectorAll<HTMLElement>('[data-about]'))
    span.textContent = texts.about[span.dataset.about!] ?? '';
  document.querySelector<ConnectProvider>('#zendesk')!.strings = texts.strings;
}
onLanguage(speak);
await startLanguage();
await renderHeader('elements');
