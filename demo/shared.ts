// What the demo pages share: the settings page's own texts in each language of the switch, the language switch
// itself (<html lang> and dir, and the element's locale pack), the header with the page links and the user switch,
// and the way the event timeline describes an event.
import type { ConnectStrings } from 'connect-provider';

/** The events of <connect-provider>: each row's, and each single element's. */
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

/** What a page with <connect-integrations> hears: the list's own event, and every row's (they bubble out of it). */
export const LIST_EVENTS = [
  ...EVENTS,
  'connect-integrations-loaded',
  'connect-integrations-change',
  'connect-integrations-error',
] as const;

/** The languages of the switch, each named in itself. */
export const LANGUAGES = { en: 'English', de: 'Deutsch', ar: 'العربية', ja: '日本語' } as const;
export type Language = keyof typeof LANGUAGES;

/**
 * Each language's locale pack, imported when the language is chosen: importing one registers it, and every element
 * whose `lang` (its own, an ancestor's, else <html lang>) it matches switches to it. English is built in.
 */
const PACKS: Record<Language, () => Promise<unknown>> = {
  en: async () => undefined,
  de: () => import('connect-provider/locales/de'),
  ar: () => import('connect-provider/locales/ar'),
  ja: () => import('connect-provider/locales/ja'),
};

/** Languages written right to left: the page (and so every element on it) takes dir="rtl". */
const RTL = ['ar', 'he', 'fa', 'ur'];

export const directionOf = (lang: string): 'rtl' | 'ltr' => (RTL.includes(lang.split('-')[0]) ? 'rtl' : 'ltr');

/** What the settings page itself says (its heading, its line, each row's description), as an app would translate it. */
export interface PageTexts {
  title: string;
  intro: string;
  /** Provider name -> the line under its name: the list's `descriptions`. */
  about: Record<string, string>;
  /**
   * The list's `strings`, which reach every row: Zendesk's input is named for what it is, a subdomain. Only Zendesk's
   * row has a workspace input, so the key changes no other row. Per language: `strings` wins over the pack.
   */
  strings: Partial<ConnectStrings>;
  /** The page's own summary line, fed by the list's events: while loading, once counted, when loading failed. */
  loading: string;
  counted: (connected: number, total: number, attention: number) => string;
  failed: string;
}

// The German, Arabic and Japanese texts of the demo's own page were written for the demo; the element's texts come
// from its locale packs.
export const TEXTS: Record<Language, PageTexts> = {
  en: {
    title: 'Integrations',
    intro: 'Connect the tools your team uses. Each row reads your connection before you click.',
    about: {
      salesforce: 'Sync accounts and opportunities.',
      hubspot: 'Keep contacts and deals in step.',
      slack: 'Post alerts to your channels.',
      zendesk: 'Turn support tickets into tasks.',
      netsuite: 'Send invoices to your ERP.',
      // Providers that sign in without a consent page: the element shows their inputs (type "invalid" into one to
      // see the provider refuse it).
      apollo: 'Enrich leads (an API key).',
      insightly: 'Import projects (an API key, sent as basic auth).',
      cloudtalk: 'Log calls (a username and password).',
      paypal: 'Reconcile payments (client credentials).',
      clariCopilot: 'Summarize meetings (an API key and secret).',
    },
    strings: { workspace: '{provider} subdomain' },
    loading: 'Loading…',
    counted: (connected, total, attention) =>
      `${connected} of ${total} connected${attention ? ` · ${attention} need${attention === 1 ? 's' : ''} attention` : ''}`,
    failed: 'Your integrations could not be loaded.',
  },
  de: {
    title: 'Integrationen',
    intro: 'Verbinden Sie die Tools Ihres Teams. Jede Zeile zeigt Ihre Verbindung schon vor dem ersten Klick.',
    about: {
      salesforce: 'Accounts und Opportunities synchronisieren.',
      hubspot: 'Kontakte und Deals abgleichen.',
      slack: 'Benachrichtigungen in Ihre Kanäle senden.',
      zendesk: 'Support-Tickets in Aufgaben umwandeln.',
      netsuite: 'Rechnungen an Ihr ERP senden.',
      apollo: 'Leads anreichern (ein API-Schlüssel).',
      insightly: 'Projekte importieren (ein API-Schlüssel, per Basic Auth gesendet).',
      cloudtalk: 'Anrufe protokollieren (Benutzername und Passwort).',
      paypal: 'Zahlungen abgleichen (Client-Zugangsdaten).',
      clariCopilot: 'Meetings zusammenfassen (API-Schlüssel und Secret).',
    },
    strings: { workspace: '{provider}-Subdomain' },
    loading: 'Wird geladen…',
    counted: (connected, total, attention) =>
      `${connected} von ${total} verbunden${attention ? ` · ${attention} erfordern Aufmerksamkeit` : ''}`,
    failed: 'Ihre Integrationen konnten nicht geladen werden.',
  },
  ar: {
    title: 'عمليات التكامل',
    intro: 'ربط الأدوات التي يستخدمها فريقك. يعرض كل صف حالة الربط قبل أي نقرة.',
    about: {
      salesforce: 'مزامنة الحسابات والفرص.',
      hubspot: 'مزامنة جهات الاتصال والصفقات.',
      slack: 'نشر التنبيهات في قنواتك.',
      zendesk: 'تحويل تذاكر الدعم إلى مهام.',
      netsuite: 'إرسال الفواتير إلى نظام ERP.',
      apollo: 'إثراء بيانات العملاء المحتملين (مفتاح API).',
      insightly: 'استيراد المشاريع (مفتاح API يُرسل بالمصادقة الأساسية).',
      cloudtalk: 'تسجيل المكالمات (اسم مستخدم وكلمة مرور).',
      paypal: 'مطابقة المدفوعات (بيانات اعتماد العميل).',
      clariCopilot: 'تلخيص الاجتماعات (مفتاح API ومفتاح سري).',
    },
    strings: { workspace: 'النطاق الفرعي في {provider}' },
    loading: 'جارٍ التحميل…',
    counted: (connected, total, attention) =>
      `المتصلة: ${connected} من ${total}${attention ? ` · تحتاج إلى انتباه: ${attention}` : ''}`,
    failed: 'تعذّر تحميل عمليات التكامل.',
  },
  ja: {
    title: '連携サービス',
    intro: 'チームで使うツールと連携します。各行には、クリックする前から現在の連携状態が表示されます。',
    about: {
      salesforce: '取引先と商談を同期します。',
      hubspot: 'コンタクトと取引を最新に保ちます。',
      slack: 'チャンネルに通知を投稿します。',
      zendesk: 'サポートチケットをタスクに変換します。',
      netsuite: '請求書を ERP に送信します。',
      apollo: 'リード情報を補完します（API キー）。',
      insightly: 'プロジェクトをインポートします（API キー、Basic 認証で送信）。',
      cloudtalk: '通話を記録します（ユーザー名とパスワード）。',
      paypal: '支払いを照合します（クライアント認証情報）。',
      clariCopilot: '会議を要約します（API キーとシークレット）。',
    },
    strings: { workspace: '{provider} のサブドメイン' },
    loading: '読み込み中…',
    counted: (connected, total, attention) =>
      `${total} 件中 ${connected} 件が連携済み${attention ? ` · 要対応 ${attention} 件` : ''}`,
    failed: '連携サービスを読み込めませんでした。',
  },
};

const STORED = 'connect-provider-demo:lang';
let current: Language = 'en';

const isLanguage = (lang: string | null): lang is Language => !!lang && Object.hasOwn(LANGUAGES, lang);

/** The language the page speaks: the one chosen with the switch (or `?lang=`), else English. */
export function language(): Language {
  return current;
}

/**
 * Speaks the language a reload keeps: `?lang=` in the address, else the last choice (localStorage), else English.
 * Call it first thing: it sets <html lang> and dir at once; the pack follows (elements already shown switch to it).
 */
export function startLanguage(): Promise<void> {
  const asked = new URLSearchParams(location.search).get('lang');
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORED);
  } catch {
    // Storage refused (a private window's policy): the choice lasts as long as the page, or its ?lang=.
  }
  return setLanguage(isLanguage(asked) ? asked : isLanguage(stored) ? stored : 'en', { remember: isLanguage(asked) });
}

/**
 * Makes `lang` the page's language: <html lang> and dir (rtl for Arabic), its locale pack imported, the page told
 * (`demo-language` on window). `remember` keeps it for a reload and the other pages: localStorage and `?lang=`.
 */
export async function setLanguage(lang: Language, { remember = true } = {}): Promise<void> {
  current = lang;
  const root = document.documentElement;
  root.lang = lang;
  root.dir = directionOf(lang);
  if (remember) {
    try {
      localStorage.setItem(STORED, lang);
    } catch {
      // See startLanguage.
    }
    const url = new URL(location.href);
    url.searchParams.set('lang', lang);
    history.replaceState(history.state, '', url);
  }
  window.dispatchEvent(new CustomEvent('demo-language', { detail: lang }));
  await PACKS[lang]();
}

/** Calls `listener` with each language the page is switched to. Returns the way to stop. */
export function onLanguage(listener: (lang: Language) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<Language>).detail);
  window.addEventListener('demo-language', handler);
  return () => window.removeEventListener('demo-language', handler);
}

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

/** Who spoke: a row's events name it in `detail.provider`; the list's own event is the list's. */
export function sourceOf(event: Event): string {
  return (event as CustomEvent<{ provider?: string }>).detail?.provider ?? 'list';
}

/** A line of the timeline for one event: its time, name and detail. */
export function entry(event: Event, source = sourceOf(event)): TimelineEntry {
  const detail = (event as CustomEvent).detail ?? {};
  const type = event.type;
  const tone =
    type === 'connect-success'
      ? 'ok'
      : type === 'connect-error' || type === 'connect-integrations-error'
        ? 'bad'
        : type === 'connect-cancel' ||
            type === 'connect-loaded' ||
            type === 'connect-disconnect' ||
            type === 'connect-integrations-loaded' ||
            type === 'connect-integrations-change'
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

/** Adds a line at the top of a plain-HTML page's timeline (React and Vue render theirs). */
export function prependLine(timeline: Element, line: TimelineEntry): void {
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
}

interface Session {
  user: string;
  users: Record<string, string>;
  platform: string;
}

/** The demo's pages: the settings page in three stacks, and single elements placed by hand. */
const PAGES = {
  vanilla: 'Plain HTML',
  react: 'React',
  vue: 'Vue',
  elements: 'Single elements',
} as const;
export type PageId = keyof typeof PAGES;

/**
 * Renders the header into #header: the page links, the language switch and the signed-in user switch. The demo's
 * own chrome is English (lang="en"); the settings page and the elements speak the language chosen.
 */
export async function renderHeader(currentPage: PageId | null): Promise<Session> {
  const session: Session = await (await fetch('/api/session')).json();
  const header = document.querySelector<HTMLElement>('#header')!;
  header.lang = 'en';
  header.innerHTML = `
    <a class="brand" href="/">connect-provider <span>demo</span></a>
    <nav aria-label="Demo pages">${Object.entries(PAGES)
      .map(([id, label]) => `<a href="/${id}.html"${id === currentPage ? ' aria-current="page"' : ''}>${label}</a>`)
      .join('')}</nav>
    <div class="switches">
      <label class="switch">Language <select id="lang"></select></label>
      <label class="switch">Signed in as <select id="user"></select></label>
    </div>`;
  const lang = header.querySelector<HTMLSelectElement>('#lang')!;
  for (const [id, label] of Object.entries(LANGUAGES)) {
    const option = new Option(label, id, false, id === current);
    option.lang = id;
    lang.add(option);
  }
  lang.addEventListener('change', () => void setLanguage(lang.value as Language));
  const user = header.querySelector<HTMLSelectElement>('#user')!;
  // The users' names are Latin: their own direction, in an rtl page too (else "(Acme Inc.)" loses its order).
  user.dir = 'auto';
  for (const [id, label] of Object.entries(session.users)) user.add(new Option(label, id, false, id === session.user));
  user.addEventListener('change', async () => {
    await fetch(`/api/session?user=${user.value}`, { method: 'POST' });
    location.reload();
  });
  const footer = document.querySelector<HTMLElement>('#footer');
  if (footer) {
    footer.lang = 'en';
    footer.dir = 'ltr';
    footer.textContent = `Backend: /api/connect on this server, talking to ${session.platform}. The API key never reaches this page.`;
  }
  return session;
}
