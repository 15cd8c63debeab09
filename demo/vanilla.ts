import 'connect-provider';
import type { ConnectProvider } from 'connect-provider';
import { entry, EVENTS, renderHeader, ZENDESK_STRINGS } from './shared.js';

// Listeners first, synchronously: each element reads its connection as soon as it is defined.
// `strings` is a property only: Zendesk's input is named for what it is, a subdomain.
document.querySelector<ConnectProvider>('#zendesk')!.strings = ZENDESK_STRINGS;

const timeline = document.querySelector('#timeline')!;
for (const el of document.querySelectorAll<ConnectProvider>('connect-provider')) {
  for (const type of EVENTS) {
    el.addEventListener(type, (event) => {
      const line = entry(el.provider, event);
      timeline.querySelector('.empty')?.remove();
      const li = document.createElement('li');
      li.className = line.tone;
      li.dataset.event = line.type;
      li.dataset.source = line.source;
      for (const [cls, text] of [
        ['time', line.time],
        ['source', line.source],
        ['type', line.type],
        ['detail', line.detail],
      ]) {
        const span = document.createElement('span');
        span.className = cls;
        span.textContent = text;
        li.append(span);
      }
      timeline.prepend(li);
    });
  }
}

await renderHeader('vanilla');
