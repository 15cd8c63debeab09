// Internal: the element's running or last flow. It makes each new flow from the element's attributes, follows its
// state (reflected at once, so a listener reads the state that follows its event), remembers what a flow showed of
// the page (no window could open; a first sign-in refused), and settles what a flow's end leaves: the rest state
// follows it, the form closes or stays for another try, and the developer hears what is theirs to fix. The element
// taken out of the page ends its flow (moved, it keeps it).
import type { ReactiveController, ReactiveElement } from 'lit';
import type { SignIn } from '../shared/sign-in.js';
import type { CredentialForm } from './credential-form.js';
import { endMessages } from './developer-messages.js';
import type { ConnectEventDetails, DetailWithoutProvider, LinkReason } from './events.js';
import { Flow, type FlowHost } from './flow.js';
import type { ConnectState } from './machine.js';
import { flowSettings, type FlowAttributes } from './flow-settings.js';
import { reflect, type RestState } from './rest-state.js';
import { REUSE_FOR } from './timing.js';

/** What the current flow reads of its element: the attributes its flows are made from, and its state. */
export interface CurrentFlowHost extends ReactiveElement, FlowAttributes {
  readonly state: ConnectState;
}

/** How the element fires a flow's event: with the flow's provider. */
export type FlowEmit = <K extends keyof ConnectEventDetails>(
  type: K,
  detail: DetailWithoutProvider<K>,
  provider: string,
) => boolean;

export class CurrentFlow implements ReactiveController {
  #flow?: Flow;
  /** How the running or last flow signs in. */
  scheme?: SignIn['way'];
  /**
   * Why a click of this element opened no window (its flow took the link way): its next flows take the link way at
   * once, so a link that expired (the flow's `timeout` ran out) is renewed by one click on the button.
   */
  noWindow?: LinkReason;
  /** A connection this element's first sign-in left refused: it never worked, so it is not one to reconnect. */
  neverWorked?: string;
  #host: CurrentFlowHost;
  #rest: RestState;
  #form: CredentialForm;
  #emit: FlowEmit;
  /** The popup's first text, in the element's language. */
  #popupText: () => string;
  #warn: FlowHost['warn'];

  constructor(
    host: CurrentFlowHost,
    rest: RestState,
    form: CredentialForm,
    emit: FlowEmit,
    popupText: () => string,
    warn: FlowHost['warn'],
  ) {
    (this.#host = host).addController(this);
    this.#rest = rest;
    this.#form = form;
    this.#emit = emit;
    this.#popupText = popupText;
    this.#warn = warn;
  }

  hostDisconnected(): void {
    // A move (removed and re-inserted in the same task) keeps the flow; a removal ends it.
    const flow = this.#flow;
    setTimeout(() => this.#host.isConnected || flow?.cancel('cancelled'));
  }

  /** The running or last flow. */
  get flow(): Flow | undefined {
    return this.#flow;
  }

  /**
   * Makes `flow` the current one (a flow withdrawn by a listener gives its place back; a disconnect leaves none), and
   * reflects its state. Only a state other than the default is written on the host: server-rendered markup and the
   * client agree.
   */
  set flow(flow: Flow | undefined) {
    this.#flow = flow;
    const { state } = this.#host;
    reflect(this.#host, 'state', state === 'idle' ? '' : state);
  }

  /** A flow runs: a click then does nothing. */
  get busy(): boolean {
    return !!this.flow?.busy;
  }

  /** A new flow, now the current one: update when there is a connection, else create. */
  create(body: Record<string, unknown>, scheme: SignIn['way']): Flow {
    const warn = this.#warn;
    const flow: Flow = new Flow(
      {
        emit: (type, detail) => this.#emit(type, detail, flow.provider),
        changed: () => {
          if (this.#flow !== flow) return;
          if (flow.state.name === 'linked') this.noWindow = flow.state.reason;
          // Reflected at once, so a listener reads the state that follows its event.
          this.flow = flow;
          if (flow.done) this.#ended(flow);
          this.#host.requestUpdate();
        },
        connectionRead: (connection) => (this.#rest.fromFlow = connection),
        warn,
      },
      flowSettings(this.#host, body, scheme, this.#rest.existing, this.#popupText(), warn),
    );
    this.scheme = scheme;
    return (this.#flow = flow);
  }

  /** The flow ended: the rest state follows it, and the developer hears what is theirs to fix. */
  #ended(flow: Flow): void {
    for (const message of endMessages(flow.provider, flow.error)) this.#warn(message);
    this.#rest.follow(flow);
    const { error } = flow;
    // A form that worked closes; one that failed stays, with what the user typed that is not secret, for another try.
    if (flow.state.name === 'working') return this.#form.close();
    if (this.scheme !== 'form' || !error) return;
    const code = error.code;
    if (code === 'cancelled' || code === 'popup_closed') {
      // The request may still land at the platform: once it could have, the connection is read again, for the truth.
      setTimeout(() => this.#host.isConnected && !this.busy && void this.#rest.read(), REUSE_FOR);
      return;
    }
    // What the backend refused in an input is the user's to fix, there; otherwise the form is theirs again.
    if (code === 'http_error' && this.#form.refused(error.problem)) return;
    if (code === 'bad_credentials' && flow.mode === 'create') this.neverWorked = error.connection?.id;
    this.#form.open();
  }
}
