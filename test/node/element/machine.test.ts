// The flow's table (src/element/machine.ts): every move, the ends, what is busy, and the public state.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  accepts,
  isBusy,
  isFinal,
  MACHINE,
  publicState,
  transition,
  type FlowInput,
  type StateName,
} from '../../../src/element/machine.js';

const states = Object.keys(MACHINE) as StateName[];
const inputs: FlowInput[] = [
  'start',
  'submit',
  'opened',
  'blocked',
  'closed',
  'link',
  'found',
  'working',
  'refused',
  'fail',
  'cancel',
];

describe('the flow table', () => {
  it('should lead through the popup way: idle, requesting, authorizing, verifying, working', () => {
    assert.equal(transition('idle', 'start'), 'requesting');
    assert.equal(transition('requesting', 'opened'), 'authorizing');
    assert.equal(transition('requesting', 'blocked'), 'blocked');
    assert.equal(transition('blocked', 'opened'), 'authorizing');
    assert.equal(transition('authorizing', 'closed'), 'severed');
    assert.equal(transition('authorizing', 'found'), 'verifying');
    assert.equal(transition('severed', 'found'), 'verifying');
    assert.equal(transition('verifying', 'working'), 'working');
    assert.equal(transition('verifying', 'refused'), 'bad_credentials');
  });

  it('should let every state that runs fail or be cancelled, and nothing move a state that ended', () => {
    for (const state of states) {
      const ended = ['working', 'bad_credentials', 'error', 'cancelled'].includes(state);
      assert.equal(isFinal(state), ended, state);
      for (const input of inputs) {
        if (ended) assert.equal(accepts(state, input), false, `${state} + ${input}`);
        else if (input === 'fail' || input === 'cancel')
          assert.equal(accepts(state, input), true, `${state} + ${input}`);
      }
    }
  });

  it('should lead through the link way: requesting or blocked, linked, verifying', () => {
    assert.equal(transition('requesting', 'link'), 'linked');
    assert.equal(transition('blocked', 'link'), 'linked');
    assert.equal(transition('linked', 'found'), 'verifying');
    for (const input of ['opened', 'blocked', 'closed', 'link'] as const)
      assert.equal(accepts('linked', input), false, input);
  });

  it('should lead through the form way: idle, submitting, verifying, with no popup state', () => {
    assert.equal(transition('idle', 'submit'), 'submitting');
    assert.equal(transition('submitting', 'found'), 'verifying');
    for (const input of ['opened', 'blocked', 'closed'] as const)
      assert.equal(accepts('submitting', input), false, input);
  });

  it('should have no move the two ways do not name (a late answer or a second click is ignored)', () => {
    const moves = states.flatMap((s) => inputs.filter((i) => accepts(s, i)).map((i) => `${s}+${i}`));
    assert.deepEqual(moves.sort(), [
      'authorizing+cancel',
      'authorizing+closed',
      'authorizing+fail',
      'authorizing+found',
      'blocked+cancel',
      'blocked+fail',
      'blocked+link',
      'blocked+opened',
      'idle+cancel',
      'idle+fail',
      'idle+start',
      'idle+submit',
      'linked+cancel',
      'linked+fail',
      'linked+found',
      'requesting+blocked',
      'requesting+cancel',
      'requesting+fail',
      'requesting+link',
      'requesting+opened',
      'severed+cancel',
      'severed+fail',
      'severed+found',
      'submitting+cancel',
      'submitting+fail',
      'submitting+found',
      'verifying+cancel',
      'verifying+fail',
      'verifying+refused',
      'verifying+working',
    ]);
  });

  it('should call busy only a flow that runs', () => {
    assert.deepEqual(
      states.filter((s) => isBusy(s)),
      ['requesting', 'blocked', 'authorizing', 'severed', 'linked', 'submitting', 'verifying'],
    );
  });

  it('should show the three waiting states as authorizing and sending a form as requesting, the others as they are', () => {
    assert.deepEqual(
      states.map((s) => publicState(s)),
      [
        'idle',
        'requesting',
        'authorizing',
        'authorizing',
        'authorizing',
        'authorizing',
        'requesting',
        'verifying',
        'working',
        'bad_credentials',
        'error',
        'cancelled',
      ],
    );
  });

  it('should refuse at compile time a move the table does not have', () => {
    // Each line fails the type check (npm run typecheck) if the move compiles.
    // @ts-expect-error idle has no "opened"
    assert.equal(transition('idle', 'opened'), undefined);
    // @ts-expect-error an ended flow has no move
    assert.equal(transition('working', 'fail'), undefined);
    // @ts-expect-error only verifying can be refused
    assert.equal(transition('authorizing', 'refused'), undefined);
  });
});
