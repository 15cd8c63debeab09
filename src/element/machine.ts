// Internal: the connect flow's states and the one table of what moves it. The
// compiler checks the table: every target is a state, every key an input; an
// input a state has no entry for is ignored (a late answer, a second click).

/** The flow's states. `blocked` and `severed` show as `authorizing` in the public `state`. */
export type FlowState =
  | 'idle'
  | 'requesting'
  | 'blocked'
  | 'authorizing'
  | 'severed'
  | 'verifying'
  | 'working'
  | 'bad_credentials'
  | 'error'
  | 'cancelled';

/** What happens to a flow. */
export type FlowInput =
  | 'start'
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
  idle: { start: 'requesting', ...ENDS },
  requesting: { opened: 'authorizing', blocked: 'blocked', ...ENDS },
  blocked: { opened: 'authorizing', ...ENDS },
  authorizing: { closed: 'severed', found: 'verifying', ...ENDS },
  severed: { found: 'verifying', ...ENDS },
  verifying: { working: 'working', refused: 'bad_credentials', ...ENDS },
  working: {},
  bad_credentials: {},
  error: {},
  cancelled: {},
} as const satisfies Record<FlowState, Partial<Record<FlowInput, FlowState>>>;

/** The state `input` leads to from `state`, or undefined when the table has no such move. */
export function next(state: FlowState, input: FlowInput): FlowState | undefined {
  return (MACHINE[state] as Partial<Record<FlowInput, FlowState>>)[input];
}

/** A state with no way out: the flow has ended. */
export const isFinal = (state: FlowState): boolean => Object.keys(MACHINE[state]).length === 0;

/** A flow that runs (a click then does nothing). */
export const isBusy = (state: FlowState): boolean => state !== 'idle' && !isFinal(state);

/** The public `state` (docs/element.md): the two waiting states read `authorizing`. */
export type ConnectState = Exclude<FlowState, 'blocked' | 'severed'>;

export function publicState(state: FlowState): ConnectState {
  return state === 'blocked' || state === 'severed' ? 'authorizing' : state;
}
