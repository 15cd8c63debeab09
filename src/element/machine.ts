// Internal: the connect flow's states and the one table of what moves it.
// A state carries its own data (a blocked popup's URL, the error that ended
// the flow). `transition(from, input)` only compiles for a move the table
// has: a flow that may receive an input in a state with no such move (a late
// answer, a second click) checks `accepts()` first.
import type { Connection } from '../shared/types.js';
import type { ConnectError } from './events.js';

/** What happens to a flow. */
export type FlowInput =
  | 'start' // the popup way: a window opens inside the click
  | 'submit' // the form way: the typed credentials are sent, no window
  | 'opened' // the popup went to the OAuth URL
  | 'blocked' // the browser blocked the popup: the fallback button is shown
  | 'closed' // the popup reads closed with no outcome: maybe severed by the provider's COOP
  | 'found' // the flow's connection is known: verify it
  | 'working'
  | 'refused' // the connection ended bad_credentials
  | 'fail'
  | 'cancel';

const ENDS = { fail: 'error', cancel: 'cancelled' } as const;

export const MACHINE = {
  idle: { start: 'requesting', submit: 'submitting', ...ENDS },
  requesting: { opened: 'authorizing', blocked: 'blocked', ...ENDS },
  blocked: { opened: 'authorizing', ...ENDS },
  authorizing: { closed: 'severed', found: 'verifying', ...ENDS },
  severed: { found: 'verifying', ...ENDS },
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
  | { name: 'submitting' }
  | { name: 'verifying' }
  | { name: 'working'; connection: Connection }
  | { name: 'bad_credentials'; error: ConnectError }
  /** `from`: the state the flow failed in (a time-out while verifying reads differently). */
  | { name: 'error'; error: ConnectError; from: StateName; noPopups?: boolean }
  | { name: 'cancelled'; error: ConnectError };

/** The shape of the state named `S`. */
export type StateOf<S extends StateName> = Extract<FlowState, { name: S }>;
// Every state name has its shape, and every shape a name of the table: checked by the compiler, with no code.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
export type EveryStateHasAShape = Holds<Same<FlowState['name'], StateName>>;

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

/** The public `state` (docs/element.md): the two waiting states read `authorizing`; sending a form, `requesting`. */
export type ConnectState = Exclude<StateName, 'blocked' | 'severed' | 'submitting'>;

export function publicState(name: StateName): ConnectState {
  if (name === 'blocked' || name === 'severed') return 'authorizing';
  return name === 'submitting' ? 'requesting' : name;
}
