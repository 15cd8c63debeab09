// Internal: what the element's status line says, decided in one place: a
// missing input first, then the disconnect in progress, then the flow, then
// the connection at rest. Pure: the element turns the key into its text.
import type { Connection, Problem } from '../shared/types.js';
import type { FlowState } from './machine.js';
import { DEFAULT_STRINGS, type ConnectStrings } from './strings.js';

/** Where the Disconnect control stands: asking to confirm, sending, failed or done (said until the next action). */
export type DisconnectStep = 'idle' | 'confirming' | 'disconnecting' | 'failed' | 'done';

export type Tone = 'error' | 'success' | '';

/** What the status line says: a string's key, its tone, and whether it names the flow's provider (the one it started with). */
export type StatusLine = [key: keyof ConnectStrings, tone: Tone, ofFlow?: boolean];

/** The backend refused the provider's name (its problem names the `provider` input). */
export const refusesProvider = (problem?: Problem): boolean =>
  !!problem?.issues?.some((issue) => issue.name === 'provider');

/** What an ended or running flow says; an error says what went wrong where it can. */
export function flowStatusKey(state: FlowState): keyof ConnectStrings | undefined {
  if (state.name === 'idle' || state.name === 'working') return undefined;
  if (state.name === 'severed') return 'waiting';
  if (state.name === 'linked') return 'linkWay';
  if (state.name === 'submitting') return 'requesting';
  if (state.name !== 'error') return state.name;
  const { code, problem } = state.error;
  if (problem?.status === 401) return 'signIn';
  if (refusesProvider(problem)) return 'unknownProvider';
  if (code === 'network_error' && problem) return 'unavailable';
  if (code === 'timeout' && state.from === 'verifying') return 'verifyTimeout';
  return code in DEFAULT_STRINGS ? (code as keyof ConnectStrings) : 'error';
}

export function statusLine(
  flow: FlowState | undefined,
  disconnect: DisconnectStep,
  existing: Connection | null | undefined,
): StatusLine | undefined {
  if (disconnect === 'failed') return ['disconnectFailed', 'error'];
  if (disconnect === 'confirming') return ['confirmDisconnect', ''];
  if (disconnect === 'done' && !existing) return ['disconnected', 'success'];
  const key = flow && flowStatusKey(flow);
  if (key) return [key, flow.name === 'error' || flow.name === 'bad_credentials' ? 'error' : '', true];
  if (existing?.status === 'bad_credentials') return ['needsReconnect', 'error'];
  if (existing || flow?.name === 'working') return ['working', 'success', true];
  return undefined;
}
