// Your app's page inside sandboxed.html's frame: two elements (Salesforce to connect, HubSpot to reconnect) in the
// language of the page around it (?lang=), each event sent up to that page's timeline.
import 'connect-provider';
import type { ConnectProvider } from 'connect-provider';
import { entry, EVENTS, onLanguage, startLanguage, TEXTS, type Language } from './shared.js';

// The link way's event too: where no window can open, it carries the link (a host may send it by mail or chat).
const HEARD = new Set<string>([...EVENTS, 'connect-link']);

// Listeners first, synchronously: each element reads its connection as soon as it is defined.
for (const el of document.querySelectorAll<ConnectProvider>('connect-provider'))
  for (const type of HEARD)
    el.addEventListener(type, (event) => parent.postMessage({ demoEvent: entry(event, el.provider) }, location.origin));

function speak(lang: Language) {
  const texts = TEXTS[lang];
  document.querySelector('#title')!.textContent = texts.title;
  for (const span of document.querySelectorAll<HTMLElement>('[data-about]'))
    span.textContent = texts.about[span.dataset.about!] ?? '';
}
onLanguage(speak);
await startLanguage();
