// Internal: the inputs a provider needs before its flow (a workspace, a metadata input, the credentials of a provider
// that signs in with a form), what they hold, the one input a click found missing, malformed or refused, and the form
// a click opens: a reconnect's credentials, or (on demand, in a list's row) a new connection's inputs. A credential
// stays in its input alone: it is read when sent, never kept or bound, and a masked one is emptied once sent. The
// inputs are one <form> per element, named for the provider, so a browser never takes them for the page's own login.
import { html, nothing, svg, type ReactiveElement, type TemplateResult } from 'lit';
import { isWorkspaceRef, WORKSPACE_REF_PATTERN } from '../shared/provider.js';
import { credentialOf, MAX_CREDENTIAL_LENGTH, type CredentialInput, type SignIn } from '../shared/sign-in.js';
import type { Problem } from '../shared/types.js';
import { isAllowedUrl } from '../shared/url.js';
import { ConnectError } from './events.js';
import { displayNameOf } from './localize.js';
import type { RestState } from './rest-state.js';
import type { ConnectStrings } from './strings.js';

/** What oauth-connect gets from the element's attributes. */
const HINTS = [
  'groupRef',
  'groupName',
  'consumerRef',
  'consumerName',
  'providerWorkspaceRef',
  'providerAppId',
] as const;

/** What the form reads of its element. */
export type FormHost = ReactiveElement & {
  provider: string;
  providerMetadata?: Record<string, unknown>;
  /** A new connection's inputs open on the Connect click (a list's rows), not before. */
  formOnDemand?: boolean;
} & {
  [K in (typeof HINTS)[number]]?: string;
};

/** An input the provider needs before its flow. */
interface Field {
  /** `workspace`, a `metadata.input` item's name, or a credential's (`apiKey`, `username`...). */
  name: string;
  label: string;
  prompt?: string;
  /** Where to find it: shown when https (or http on a loopback host). */
  docsURL?: string;
  /** What the input holds: the user's value, else the provider's default. A credential's is never kept. */
  value?: string;
  workspace?: boolean;
  /** A credential: read from its input when sent, then emptied. */
  credential?: boolean;
  masked?: boolean;
  options?: Array<{ value: string; label: string }>;
}

export class CredentialForm {
  /** What the inputs that are not credentials hold, by name. */
  #values: Record<string, string> = {};
  /** A missing, malformed or refused input, said in the status line until the next action. */
  problem = '';
  /** The form a click opens is open: a reconnect's credentials, or a new connection's inputs on demand. */
  opened = false;
  /** A request of the form runs: its inputs stay where they are, read-only, until the outcome. */
  sending = false;
  /** How long each credential input's value was at its last input event: a change answers a problem. */
  #lengths = new Map<string, number>();
  /** The masked inputs the user asked to see, by name (never their values). */
  #revealed = new Set<string>();
  #host: FormHost;
  #rest: RestState;
  #text: (key: keyof ConnectStrings, field?: string) => string;
  #submit: () => void;
  #edited: () => void;
  /** The name of the input that `problem` is about. */
  #problemField?: string;

  /**
   * @param rest the element's rest state: the provider's info, how it signs in, the connection a click updates.
   * @param text a user-facing text naming the element's provider (and a field).
   * @param submit Enter in an input: the main button's click.
   * @param edited the user changed an input: what an earlier action said is over.
   */
  constructor(
    host: FormHost,
    rest: RestState,
    text: (key: keyof ConnectStrings, field?: string) => string,
    submit: () => void,
    edited: () => void,
  ) {
    this.#host = host;
    this.#rest = rest;
    this.#text = text;
    this.#submit = submit;
    this.#edited = edited;
  }

  /** Says `problem` (or nothing) in the status line, and updates the element. */
  say(problem = '', field?: string): void {
    this.problem = problem;
    this.#problemField = field;
    this.#host.requestUpdate();
  }

  /**
   * The click opens the form first: a reconnect by form asks for the credentials, and a new connection's inputs open
   * on demand.
   */
  get asksFirst(): boolean {
    if (this.opened) return false;
    const rest = this.#rest;
    const signIn = rest.signIn;
    if (rest.updating) return signIn.way === 'form' && !!signIn.inputs.length;
    return !!this.#host.formOnDemand && !!this.#allFields().length;
  }

  /** Opens the form (or keeps it open), focus on `field` or its first input. */
  open(field?: string): void {
    this.opened = true;
    if (!field) this.say();
    void this.#host.updateComplete.then(() => {
      const inputs = this.#inputs();
      (inputs.find((input) => input.dataset.field === field) ?? inputs[0])?.focus();
    });
  }

  /** The form's way back (or its success): its inputs go, emptied; `focus`: to the main button. */
  close(focus = false): void {
    this.clear(true);
    this.opened = false;
    this.say();
    if (focus)
      void this.#host.updateComplete.then(() =>
        this.#host.shadowRoot?.querySelector<HTMLElement>('[part=button]')?.focus(),
      );
  }

  /**
   * Sent: a masked value leaves its input at once, whatever the outcome; `all`: every credential (the form closes).
   * What is not secret (a username, a client ID) stays for the user to fix and send again.
   */
  clear(all = false): void {
    for (const input of this.#inputs())
      if (input.dataset.credential !== undefined && (all || input.dataset.masked !== undefined)) input.value = '';
    this.#revealed.clear();
  }

  /**
   * The backend refused what the form sent (a 400 naming a credential, or a 413): the input is marked, described by
   * what is wrong, and focused; undefined when the problem names none of the form's inputs.
   */
  refused(problem: Problem | undefined): string | undefined {
    const fields = this.#fields().filter((f) => f.credential);
    let field: Field | undefined;
    let key: 'refusedField' | 'tooLong' = 'refusedField';
    if (problem?.status === 413) {
      // Too large a body: the longest of what was typed.
      key = 'tooLong';
      field = fields.find((f) => f.name === this.#longest);
    } else if (problem?.status === 400)
      // An issue's name is the credential's path in the body: `apiKey`, `basicAuth.username`, `customAuth.<input>`.
      field = fields.find((f) =>
        problem.issues?.some(({ name = '' }) => name === f.name || name.endsWith(`.${f.name}`)),
      );
    if (!field) return undefined;
    this.say(this.#text(key, field.label), field.name);
    this.open(field.name);
    return field.name;
  }

  /** The name of the longest credential the last request sent (for a 413). */
  #longest?: string;

  /**
   * The inputs the provider needs that the host did not set, then its credential inputs: a new connection's, or
   * those of an open reconnect form.
   */
  #fields(): Field[] {
    if (!this.#rest.updating && this.#host.formOnDemand && !this.opened) return [];
    return this.#allFields();
  }

  /** Every input the provider needs now, whether the form is open or not. */
  #allFields(): Field[] {
    const rest = this.#rest;
    const info = rest.providerInfo;
    if (!info) return [];
    const text = this.#text;
    const signIn = rest.signIn;
    const credentials = (signIn.way === 'form' ? signIn.inputs : []).map(
      ({ label, ...input }: CredentialInput): Field => ({
        ...input,
        label: 'text' in label ? label.text : text(label.builtIn),
        credential: true,
      }),
    );
    if (rest.updating) return this.opened ? credentials : [];
    const fields: Field[] = [];
    const { providerWorkspaceRef, providerMetadata } = this.#host;
    if (info.oauth2Opts?.explicitWorkspaceRequired && !providerWorkspaceRef)
      fields.push({
        name: 'workspace',
        label: text('workspace'),
        value: this.#values.workspace ?? '',
        workspace: true,
      });
    for (const { name, displayName, prompt, docsURL, defaultValue } of info.metadata?.input ?? []) {
      if (providerMetadata && name in providerMetadata) continue;
      fields.push({
        name,
        label: displayName || name,
        prompt,
        docsURL,
        value: this.#values[name] ?? defaultValue ?? '',
      });
    }
    return fields.concat(credentials);
  }

  /**
   * oauth-connect's body (or generate connection's, without the credential) from the hints and the inputs, and the
   * credential the user typed in the platform's shape (read from its inputs: the form keeps no copy); or, when an
   * input is empty or malformed, the error that stops the click (said in the status line, the input focused).
   */
  request(signIn: SignIn): { body: Record<string, unknown>; credential: Record<string, unknown> } | ConnectError {
    const host = this.#host;
    const body: Record<string, unknown> = { provider: host.provider };
    for (const key of HINTS) body[key] = host[key];
    const metadata: Record<string, unknown> = { ...host.providerMetadata };
    const typed: Record<string, string> = {};
    let longest = 0;
    for (const field of this.#fields()) {
      const input = this.#inputs().find((i) => i.dataset.field === field.name);
      // What a person meant: a pasted value's surrounding spaces and line breaks are not part of it (inner ones are).
      const value = (field.credential ? (input?.value ?? '') : field.value!).trim();
      const wrong = !value
        ? 'required'
        : value.length > MAX_CREDENTIAL_LENGTH
          ? 'tooLong'
          : field.workspace && !isWorkspaceRef(value)
            ? 'invalidWorkspace'
            : '';
      if (wrong) {
        this.say(this.#text(wrong, field.label), field.name);
        input?.focus();
        return new ConnectError(
          'invalid_config',
          wrong === 'required' ? `${field.label} is required` : `${field.label} is not valid`,
        );
      }
      if (field.credential && value.length > longest) [longest, this.#longest] = [value.length, field.name];
      if (field.credential) typed[field.name] = value;
      else if (field.workspace) body.providerWorkspaceRef = value;
      else metadata[field.name] = { value, source: 'input' };
    }
    if (Object.keys(metadata).length) body.providerMetadata = metadata;
    return { body, credential: credentialOf(signIn, typed) };
  }

  /**
   * The inputs, each with its label, prompt and docs link, in a form of their own: named for the provider, so a
   * password manager neither offers the page's saved login for them nor saves them as the page's. While its request
   * runs the form stays in place, read-only and busy. Escape closes a form a click opened.
   */
  render(): TemplateResult | typeof nothing {
    const fields = this.#fields();
    if (!fields.length) return nothing;
    // Named by the provider, so the inputs of a list's rows ("API key" in each) are told apart.
    return html`<form
      name=${`connect-${this.#host.provider}`}
      aria-label=${displayNameOf(this.#host.provider, this.#rest.providerInfo)}
      autocomplete="off"
      novalidate
      aria-busy=${this.sending}
      @submit=${(event: Event) => event.preventDefault()}
      @keydown=${this.#handleFormKeydown}
    >${fields.map((field, index) => this.#renderField(field, index))}</form>`;
  }

  #handleFormKeydown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape' || !this.opened || this.sending) return;
    event.preventDefault();
    this.close(true);
  };

  /**
   * An input, labelled by its label alone, described by the provider's prompt and docs link (and, when it is what
   * stopped the click, by the status line that says why). A credential's value is never bound. The prompt is the
   * platform's text, in its own direction (`dir="auto"`: an English hint keeps its punctuation on an Arabic page).
   */
  #renderField(field: Field, index: number): TemplateResult {
    const { name, options } = field;
    // Ids and names that no password manager reads as a login's: the field's name is data.
    const id = `f${index}`;
    const hint = `${name}-hint`;
    const wrong = !!this.problem && this.#problemField === name;
    const described = `${hint}${wrong ? ' status' : ''}`;
    const control = options
      ? html`<select
          part="field"
          id=${id}
          data-field=${name}
          data-credential
          required
          ?disabled=${this.sending}
          aria-describedby=${described}
          aria-invalid=${wrong}
          @change=${this.#handleInput}
          @keydown=${this.#handleKeydown}
          ><option value="">${this.#text('choose')}</option>${options.map(
            (option) => html`<option value=${option.value}>${option.label || option.value}</option>`,
          )}</select
        >`
      : html`<input
            part="field"
            id=${id}
            data-field=${name}
            data-credential=${field.credential ? '' : nothing}
            data-masked=${field.masked ? '' : nothing}
            class=${field.masked && !this.#revealed.has(name) ? 'masked' : ''}
            type="text"
            required
            ?readonly=${this.sending}
            maxlength=${MAX_CREDENTIAL_LENGTH}
            autocomplete="off"
            data-1p-ignore
            data-lpignore="true"
            data-bwignore
            data-form-type="other"
            autocapitalize="none"
            autocorrect="off"
            spellcheck="false"
            pattern=${field.workspace ? WORKSPACE_REF_PATTERN : '.*'}
            aria-describedby=${described}
            aria-invalid=${wrong}
            .value=${field.value ?? ''}
            @input=${this.#handleInput}
            @keydown=${this.#handleKeydown}
          />`;
    // The reveal control stands beside its input, outside the label: the input's name is its label alone.
    return html`<div class="field">
      <label for=${id}>${field.label}</label
      ><span class="control">${control}${field.masked ? this.#renderReveal(field) : nothing}</span
      ><span id=${hint}
        >${field.prompt ? html`<small dir="auto">${field.prompt}</small>` : nothing}${
          isAllowedUrl(field.docsURL)
            ? html`<a part="link" href=${field.docsURL} target="_blank" rel="noopener noreferrer"
                >${this.#text('docs')}</a
              >`
            : nothing
        }</span
      >
    </div>`;
  }

  /** Shows or masks a masked input again; its pressed state tells which. */
  #renderReveal({ name, label }: Field): TemplateResult {
    const shown = this.#revealed.has(name);
    return html`<button
      part="reveal"
      type="button"
      aria-pressed=${shown}
      aria-label=${this.#text('reveal', label)}
      @click=${() => {
        if (!this.#revealed.delete(name)) this.#revealed.add(name);
        this.#host.requestUpdate();
      }}
    ><svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="M12 5C6 5 2 12 2 12s4 7 10 7 10-7 10-7-4-7-10-7zm0 11a4 4 0 110-8 4 4 0 010 8z" fill="currentColor"></path>${
      // Shown: the eye struck through (an SVG fragment, in the SVG namespace).
      shown ? svg`<path d="M3 3l18 18" stroke="currentColor" stroke-width="2"></path>` : nothing
    }</svg></button>`;
  }

  /** The form's inputs and choices. */
  #inputs(): HTMLInputElement[] {
    return [...(this.#host.shadowRoot?.querySelectorAll<HTMLInputElement>('[part=field]') ?? [])];
  }

  /** Enter in an input submits, as in a form. */
  #handleKeydown = (event: KeyboardEvent): void => {
    if (event.key !== 'Enter' || event.isComposing) return;
    event.preventDefault();
    if (!this.sending) this.#submit();
  };

  #handleInput = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    const name = input.dataset.field!;
    // A credential stays in its input alone (only its length is kept); a change of it answers the problem, an input
    // event that changes nothing (an empty paste of a focused field, Chromium's on focus) does not.
    if (input.dataset.credential !== undefined) {
      if (this.#lengths.get(name) !== input.value.length) this.say();
      return void this.#lengths.set(name, input.value.length);
    }
    // Only a changed value answers the problem (Chromium fires input on a focused empty field too).
    if ((this.#values[name] ?? '') === input.value) return;
    this.#values = { ...this.#values, [name]: input.value };
    this.say();
    this.#edited();
  };
}
