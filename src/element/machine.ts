// Internal: the connect flow's states, the one table of what moves it
// (MACHINE) and the table of what each state does (EFFECTS). A state carries
// its own data (a blocked popup's URL, the error that ended the flow).
// `transition(from, input)` only compiles for a move the table has: a flow
// that may receive an input in a state with no such move (a late answer, a
// second click) checks `accepts()` first.
import type { Connection } from '../shared/types.js';
import type { ConnectError, ConnectEventDetails, LinkReason } from './events.js';

/** What happens to a flow. */
export type FlowInput =
  | 'start' // the popup way: a window opens inside the click
  | 'submit' // the form way: the typed credentials are sent, no window
  | 'opened' // the popup went to the OAuth URL
  | 'blocked' // the browser blocked the popup: the fallback button is shown
  | 'closed' // the popup reads closed with no outcome: maybe severed by the provider's COOP
  | 'link' // no window can open here: the link is shown to open elsewhere (the link way)
  | 'found' // the flow's connection is known: verify it
  | 'working'
  | 'refused' // the connection ended bad_credentials
  | 'fail'
  | 'cancel';

const ENDS = { fail: 'error', cancel: 'cancelled' } as const;

export const MACHINE = {
  idle: { start: 'requesting', submit: 'submitting', ...ENDS },
  requesting: { opened: 'authorizing', blocked: 'blocked', link: 'linked', ...ENDS },
  blocked: { opened: 'authorizing', link: 'linked', ...ENDS },
  authorizing: { closed: 'severed', found: 'verifying', ...ENDS },
  severed: { found: 'verifying', ...ENDS },
  linked: { found: 'verifying', ...ENDS },
  submitting: { found: 'verifying', ...ENDS },
  verifying: { working: 'working', refused: 'bad_credentials', ...ENDS },
  working: {},
  bad_credentials: {},
  error: {},
  cancelled: {},
} as const satisfies Record<string, Partial<Record<FlowInput, string>>>;

type Table = typeof MACHINE;
export type StateName = keyof Table;
/** The inputs a state (or every state of a union) has a move for. */
export type InputOf<S extends StateName> = keyof Table[S] & FlowInput;
/** The states with no way out. */
export type FinalName = { [S in StateName]: InputOf<S> extends never ? S : never }[StateName];
/** The states of a flow that runs. */
export type ActiveName = Exclude<StateName, FinalName | 'idle'>;
/** The states that have a move for `input`. */
export type Accepting<I extends FlowInput> = { [S in StateName]: I extends InputOf<S> ? S : never }[StateName];

/** A flow's state, with what it carries. */
export type FlowState =
  | { name: 'idle' }
  | { name: 'requesting' }
  /** The popup was blocked: the fallback button opens `url`. */
  | { name: 'blocked'; url: string }
  | { name: 'authorizing' }
  | { name: 'severed' }
  /** No window can open (`reason`): the element shows `url` as text and as a QR code, and polls as severed does. */
  | { name: 'linked'; url: string; reason: LinkReason }
  | { name: 'submitting' }
  | { name: 'verifying' }
  | { name: 'working'; connection: Connection }
  | { name: 'bad_credentials'; error: ConnectError }
  /** `from`: the state the flow failed in (a time-out while verifying reads differently). */
  | { name: 'error'; error: ConnectError; from: StateName }
  | { name: 'cancelled'; error: ConnectError };

/** The shape of the state named `S`. */
export type StateOf<S extends StateName> = Extract<FlowState, { name: S }>;
// Every state name has its shape, and every shape a name of the table: checked by the compiler, with no code.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
export type EveryStateHasAShape = Holds<Same<FlowState['name'], StateName>>;

/** What a flow does on entering a state (flow.ts does each where it makes the move that enters the state). */
export type Effect =
  | 'holdUntilEnd' // the time limit, the page's unload (cancels) and visibility (polls at once when shown)
  | 'listenMessages' // the completion messages of the popup, or of a trusted origin's other window
  | 'openBlank' // a blank popup, inside the click, saying what happens (none when the browser blocks it)
  | 'watchPopup' // the popup checked every CLOSED_CHECK until it reads closed, while requesting or authorizing
  | 'readBaseline' // the caller's connections now: "changed since the flow began" is judged by them
  | 'requestUrl' // the OAuth URL: the popup goes to it (authorizing), or the flow reads blocked
  | 'sendCredential' // the typed credential (create: with the provider and inputs), held only by this request
  | 'waitGrace' // closed-grace, then popup_closed, unless the flow's connection is found first
  | 'pollNow' // the backend asked at once (severed, linked: then every SEVERED_POLL intervals while it can list)
  | 'verify'; // the connection's status, polled quickly at first (QUICK_POLLS), until working or bad_credentials

/** A row of EFFECTS: the event a state tells on entering it, then the effects it starts, in order. */
export interface StateEffects {
  tells?: keyof ConnectEventDetails;
  entry?: readonly Effect[];
}

/**
 * What each state does, in one place (XState's `entry`, without XState): the event it tells on entering it (after the
 * state changed, so a listener reads the new one), then the effects it starts, each only while the flow is still in
 * it. What they start is held by the flow's lifetime; reaching a final state ends it, which clears every timer,
 * aborts every request, removes every listener and closes the popup, then settles the flow's promise (working
 * resolves, the others reject with their error). flow.ts does each row where it makes the move; the Node tests
 * (test/node/element/flow*.test.ts) hold the flow to this table. What each state holds until the end:
 * - requesting: the time limit, the page's listeners, the message listener, the popup and its watch, the URL's
 *   request and the baseline's read. The popup closed before the URL came is a plain cancel (popup_closed).
 * - blocked: the same but the popup; the element shows a button whose click opens it (openBlocked), or shows the
 *   link (linked) when even a click opens none.
 * - authorizing: the popup and its watch again. Closed now is ambiguous (a provider page's COOP makes it read
 *   closed while it is open): severed.
 * - severed: polls for the caller's own matching connection appeared or changed, and the grace timer; a message
 *   still counts. Nothing found when the grace ends: popup_closed.
 * - linked: no window can open (blocked and the fallback's click opened none, or known before: the click opened
 *   none): the time limit, the page's listeners, and the polls as severed, until the time limit; no grace, no popup.
 * - submitting: the time limit, the page's listeners and the credential's request; no popup, no messages.
 * - verifying: the polls (and a popup's message listener); working or bad_credentials end it.
 */
export const EFFECTS = {
  idle: {},
  requesting: { entry: ['holdUntilEnd', 'listenMessages', 'openBlank', 'watchPopup', 'readBaseline', 'requestUrl'] },
  blocked: { tells: 'connect-popup-blocked' },
  authorizing: { tells: 'connect-popup', entry: ['watchPopup'] },
  severed: { entry: ['waitGrace', 'pollNow'] },
  linked: { tells: 'connect-link', entry: ['pollNow'] },
  submitting: { entry: ['holdUntilEnd', 'sendCredential'] },
  verifying: { tells: 'connect-connection', entry: ['verify'] },
  working: { tells: 'connect-success' },
  bad_credentials: { tells: 'connect-error' },
  error: { tells: 'connect-error' },
  // Told unless connect-start was cancelled (withdraw): that flow never ran, and says nothing.
  cancelled: { tells: 'connect-cancel' },
} as const satisfies Record<StateName, StateEffects>;

/** The state `input` leads to from `from`: only a move of the table compiles. */
export function transition<S extends StateName, I extends InputOf<S>>(from: S, input: I): Table[S][I] {
  return MACHINE[from][input];
}

/** Whether the table has a move for `input` from `from` (a late answer or a second click has none). */
export function accepts<I extends FlowInput>(from: StateName, input: I): from is Accepting<I> {
  return input in MACHINE[from];
}

/** A state with no way out: the flow has ended. */
export const isFinal = (name: StateName): name is FinalName => Object.keys(MACHINE[name]).length === 0;

/** A flow that runs (a click then does nothing). */
export const isBusy = (name: StateName): name is ActiveName => name !== 'idle' && !isFinal(name);

/** The public `state` (docs/element.md): the three waiting states read `authorizing`; sending a form, `requesting`. */
export type ConnectState = Exclude<StateName, 'blocked' | 'severed' | 'linked' | 'submitting'>;

export function publicState(name: StateName): ConnectState {
  if (name === 'blocked' || name === 'severed' || name === 'linked') return 'authorizing';
  return name === 'submitting' ? 'requesting' : name;
}
