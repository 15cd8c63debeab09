// Internal: Disconnect at rest, asked to confirm, then `DELETE {endpoint}/connections/{id}`. Not a flow: it emits
// none of the flow's events. A backend that does not serve DELETE (405) loses the control, and the developer hears
// why once.
import { html, nothing, type ReactiveElement, type TemplateResult } from 'lit';
import type { Connection } from '../shared/types.js';
import { connectionPath, type BackendError } from './backend.js';
import { renderControl } from './parts.js';
import { ConnectError } from './events.js';
import { requestAtRest } from './page-reads.js';
import type { DisconnectStep } from './status.js';
import type { RestState } from './rest-state.js';
import type { ConnectStrings } from './strings.js';

/** What Disconnect reads of its element. */
export interface DisconnectHost extends ReactiveElement {
  endpoint: string;
  disconnectable: boolean;
  requestHeaders?: Record<string, string>;
}

export class Disconnect {
  #host: DisconnectHost;
  #rest: RestState;
  #text: (key: keyof ConnectStrings) => string;
  #warn: (message: string) => void;
  #done: (connection: Connection) => void;
  #acted: () => void;
  #step: DisconnectStep = 'idle';
  /** The backend refused DELETE (405): Disconnect is not offered again. */
  #refused = false;

  /**
   * @param rest the element's rest state: the connection to disconnect, and whether a flow runs.
   * @param done the connection is gone: the element shows it and tells the page.
   * @param acted the user acted: what the last action said is over.
   */
  constructor(
    host: DisconnectHost,
    rest: RestState,
    text: (key: keyof ConnectStrings) => string,
    warn: (message: string) => void,
    done: (connection: Connection) => void,
    acted: () => void,
  ) {
    this.#host = host;
    this.#rest = rest;
    this.#text = text;
    this.#warn = warn;
    this.#done = done;
    this.#acted = acted;
  }

  /** Where the control stands, for the status line. */
  get step(): DisconnectStep {
    return this.#step;
  }

  set step(step: DisconnectStep) {
    this.#step = step;
    this.#host.requestUpdate();
  }

  /** Rejects with a ConnectError and keeps the connection when the backend refuses; a 404 is done already. */
  async run(): Promise<void> {
    const connection = this.#rest.existing;
    if (!connection || this.step === 'disconnecting' || this.#rest.busy) {
      if (this.step === 'confirming') this.step = 'idle';
      throw new ConnectError('invalid_config', 'there is no connection to disconnect');
    }
    this.step = 'disconnecting';
    this.#acted();
    const { endpoint, requestHeaders } = this.#host;
    try {
      await requestAtRest(endpoint, { ...requestHeaders }, 'DELETE', connectionPath(connection.id));
    } catch (error) {
      // retrying() throws BackendErrors only.
      const { code, message, problem } = error as BackendError;
      // A 404: the connection is gone already, which is what the user asked for.
      if (problem?.status !== 404) {
        this.step = 'failed';
        if (problem?.status === 405) {
          this.#refused = true;
          this.#warn('the backend refused DELETE (405): createConnectHandler needs allowDisconnect: true');
        }
        throw new ConnectError(code, message, problem);
      }
    }
    this.step = 'done';
    this.#done(connection);
  }

  render(busy: boolean): TemplateResult | typeof nothing {
    if (!this.#host.disconnectable || !this.#rest.existing || busy || this.#refused) return nothing;
    const text = this.#text;
    const confirming = this.step === 'confirming';
    // While it is sent, the confirming button keeps the focus (aria-disabled, not disabled); the question is its
    // description, and Escape keeps the connection.
    const sending = this.step === 'disconnecting';
    return html`<span @keydown=${this.#handleConfirmKey}
      >${renderControl(
        'disconnect',
        text(confirming || sending ? 'confirm' : 'disconnect'),
        this.#handleDisconnect,
        sending,
        confirming || sending ? undefined : text('disconnectNamed'),
      )}${confirming ? renderControl('keep', text('keep'), this.#handleKeep) : nothing}</span
    >`;
  }

  #handleDisconnect = (): void => {
    if (this.step === 'disconnecting') return;
    if (this.step !== 'confirming') {
      this.step = 'confirming';
      this.#acted();
      return;
    }
    this.run().catch(() => {});
  };

  #handleKeep = (): void => {
    this.step = 'idle';
  };

  /** Escape in the confirmation keeps the connection, as a dialog's Escape would. */
  #handleConfirmKey = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && this.step === 'confirming') this.#handleKeep();
  };
}
