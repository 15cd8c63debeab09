import 'connect-provider';
import type { ConnectProvider } from 'connect-provider';
import { entry, EVENTS, PROVIDERS, renderHeader } from './shared.js';

await renderHeader('vanilla');

const connect = document.querySelector<ConnectProvider>('#connect')!;
const select = document.querySelector<HTMLSelectElement>('#provider')!;
for (const provider of PROVIDERS) select.add(new Option(provider, provider));
select.addEventListener('change', () => (connect.provider = select.value));

const timeline = document.querySelector('#timeline')!;
for (const el of document.querySelectorAll<ConnectProvider>('connect-provider')) {
  for (const type of EVENTS) {
    el.addEventListener(type, (event) => {
      const line = entry(el.dataset.source!, event);
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
