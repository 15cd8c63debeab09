// Internal: the inputs a provider needs before its flow (a workspace, a metadata input, the credentials of a provider
// that signs in with a form), what they hold, the one input a click found missing or malformed, and the reconnect
// form of a connection whose provider signs in with credentials. A credential stays in its input alone: it is read
// when sent, then emptied, and never kept or bound.
import { html, nothing, type ReactiveElement, type TemplateResult } from 'lit';
import { isWorkspaceRef, WORKSPACE_REF_PATTERN } from '../shared/provider.js';
import { credentialOf, type CredentialInput, type SignIn } from '../shared/sign-in.js';
import { isAllowedUrl } from '../shared/url.js';
import { ConnectError } from './events.js';
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
export type FormHost = ReactiveElement & { provider: string; providerMetadata?: Record<string, unknown> } & {
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
  /** A missing or malformed input the last click met, said in the status line until the next action. */
  problem = '';
  /** The credential form of a connection's reconnect is open. */
  reconnecting = false;
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

  /** A reconnect by form asks for the credentials first: the click opens the form, focus on its first input. */
  open(): void {
    this.reconnecting = true;
    this.say();
    void this.#host.updateComplete.then(() => this.#credentialElements()[0]?.focus());
  }

  /** The reconnect form's way back (or its success): its inputs go, emptied. */
  close(): void {
    this.clear();
    this.reconnecting = false;
    this.say();
  }

  /** Sent: what the user typed leaves the inputs at once, whatever the outcome. */
  clear(): void {
    for (const input of this.#credentialElements()) input.value = '';
  }

  /**
   * The inputs the provider needs that the host did not set, then its credential inputs: a new connection's, or
   * those of an open reconnect form.
   */
  #fields(): Field[] {
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
    if (rest.updating) return this.reconnecting ? credentials : [];
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
    for (const field of this.#fields()) {
      const input = host.shadowRoot?.querySelector<HTMLInputElement>(`[part=field][name="${CSS.escape(field.name)}"]`);
      const value = field.credential ? (input?.value ?? '') : field.value!.trim();
      const wrong = !value ? 'required' : field.workspace && !isWorkspaceRef(value) ? 'invalidWorkspace' : '';
      if (wrong) {
        this.say(this.#text(wrong, field.label), field.name);
        input?.focus();
        return new ConnectError('invalid_config', `${field.label} is required`);
      }
      if (field.credential) typed[field.name] = value;
      else if (field.workspace) body.providerWorkspaceRef = value;
      else metadata[field.name] = { value, source: 'input' };
    }
    if (Object.keys(metadata).length) body.providerMetadata = metadata;
    return { body, credential: credentialOf(signIn, typed) };
  }

  /** The inputs, each with its label, prompt and docs link. */
  render(): TemplateResult[] {
    return this.#fields().map((field) => this.#renderField(field));
  }

  /**
   * An input, labelled by its label alone, described by the provider's prompt and docs link (and, when it is what
   * stopped the click, by the status line that says why). A credential's value is never bound. The prompt is the
   * platform's text, in its own direction (`dir="auto"`: an English hint keeps its punctuation on an Arabic page).
   */
  #renderField(field: Field): TemplateResult {
    const { name, options } = field;
    const hint = `${name}-hint`;
    const wrong = !!this.problem && this.#problemField === name;
    const described = `${hint}${wrong ? ' status' : ''}`;
    const control = options
      ? html`<select
          part="field"
          name=${name}
          data-credential
          required
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
          name=${name}
          data-credential=${field.credential ? '' : nothing}
          type=${field.masked ? 'password' : 'text'}
          required
          autocomplete="off"
          spellcheck="false"
          pattern=${field.workspace ? WORKSPACE_REF_PATTERN : '.*'}
          aria-describedby=${described}
          aria-invalid=${wrong}
          .value=${field.value ?? ''}
          @input=${this.#handleInput}
          @keydown=${this.#handleKeydown}
        />`;
    return html`<div class="field">
      <label><span>${field.label}</span>${control}</label
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

  #credentialElements(): HTMLInputElement[] {
    return [...(this.#host.shadowRoot?.querySelectorAll<HTMLInputElement>('[data-credential]') ?? [])];
  }

  /** Enter in an input submits, as in a form. */
  #handleKeydown = (event: KeyboardEvent): void => {
    if (event.key !== 'Enter' || event.isComposing) return;
    event.preventDefault();
    this.#submit();
  };

  #handleInput = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    // A credential stays in its input alone; typing into it answers the problem (an empty one, Chromium's input event
    // on focus, does not).
    if (input.dataset.credential !== undefined) return void (input.value && this.say());
    // Only a changed value answers the problem (Chromium fires input on a focused empty field too).
    if ((this.#values[input.name] ?? '') === input.value) return;
    this.#values = { ...this.#values, [input.name]: input.value };
    this.say();
    this.#edited();
  };
}
