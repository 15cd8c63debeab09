// What the three demo pages share: the integrations the settings page lists,
// the header with the user switch, and the way the event timeline describes an
// event.

export const EVENTS = [
  'connect-start',
  'connect-popup',
  'connect-popup-blocked',
  'connect-connection',
  'connect-status',
  'connect-success',
  'connect-error',
  'connect-cancel',
  'connect-loaded',
  'connect-disconnect',
] as const;

/** The settings page's rows: each is a <connect-provider> for one provider. */
export const INTEGRATIONS = [
  { provider: 'salesforce', name: 'Salesforce', about: 'Sync accounts and opportunities.' },
  { provider: 'hubspot', name: 'HubSpot', about: 'Keep contacts and deals in step.' },
  { provider: 'slack', name: 'Slack', about: 'Post alerts to your channels.' },
  { provider: 'zendesk', name: 'Zendesk', about: 'Turn support tickets into tasks.' },
  { provider: 'netsuite', name: 'NetSuite', about: 'Send invoices to your ERP.' },
  // Providers that sign in without a consent page: the element shows their inputs (type "invalid" into one to see
  // the provider refuse it).
  { provider: 'apollo', name: 'Apollo', about: 'Enrich leads (an API key).' },
  { provider: 'insightly', name: 'Insightly', about: 'Import projects (an API key, sent as basic auth).' },
  { provider: 'cloudtalk', name: 'CloudTalk', about: 'Log calls (a username and password).' },
  { provider: 'paypal', name: 'PayPal', about: 'Reconcile payments (client credentials).' },
  { provider: 'clariCopilot', name: 'Clari Copilot', about: 'Summarize meetings (an API key and secret).' },
] as const;

/** Zendesk's input is its subdomain: the element's `strings` name it so. */
export const ZENDESK_STRINGS = { workspace: 'Zendesk subdomain' };

export interface TimelineEntry {
  id: number;
  time: string;
  source: string;
  type: string;
  detail: string;
  tone: 'info' | 'ok' | 'bad' | 'muted';
}

let next = 0;
const started = performance.now();

/** A line of the timeline for one event: its time, name and detail. */
export function entry(source: string, event: Event): TimelineEntry {
  const detail = (event as CustomEvent).detail ?? {};
  const type = event.type;
  const tone =
    type === 'connect-success'
      ? 'ok'
      : type === 'connect-error'
        ? 'bad'
        : type === 'connect-cancel' || type === 'connect-loaded' || type === 'connect-disconnect'
          ? 'muted'
          : 'info';
  return {
    id: next++,
    time: `${((performance.now() - started) / 1000).toFixed(2)} s`,
    source,
    type,
    detail: JSON.stringify(detail, (key, value) =>
      key === 'connection' && value && typeof value === 'object' ? `${value.id} (${value.status})` : value,
    ),
    tone,
  };
}

interface Session {
  user: string;
  users: Record<string, string>;
  platform: string;
}

/** Renders the header (page links and the signed-in user switch) into #header. */
export async function renderHeader(current: 'vanilla' | 'react' | 'vue'): Promise<Session> {
  const session: Session = await (await fetch('/api/session')).json();
  const header = document.querySelector('#header')!;
  const pages = { vanilla: 'Plain HTML', react: 'React', vue: 'Vue' } as const;
  header.innerHTML = `
    <a class="brand" href="/">connect-provider <span>demo</span></a>
    <nav>${Object.entries(pages)
      .map(([id, label]) => `<a href="/${id}.html"${id === current ? ' aria-current="page"' : ''}>${label}</a>`)
      .join('')}</nav>
    <label class="user">Signed in as <select id="user"></select></label>`;
  const select = header.querySelector<HTMLSelectElement>('#user')!;
  for (const [id, label] of Object.entries(session.users))
    select.add(new Option(label, id, false, id === session.user));
  select.addEventListener('change', async () => {
    await fetch(`/api/session?user=${select.value}`, { method: 'POST' });
    location.reload();
  });
  const footer = document.querySelector('#footer');
  if (footer)
    footer.textContent = `Backend: /api/connect on this server, talking to ${session.platform}. The API key never reaches this page.`;
  return session;
}
