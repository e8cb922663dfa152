import { describe, expect, it } from 'vitest';
import type { ActivityLog } from '../../../shared/api/reservation.ts';
import { makeStore } from '../../app/store.ts';
import { conversationOf, conversationRestored, dialogAdded, dialogGroup } from './dialogSlice.ts';

const SECOND = 1_000;

function lines(store: ReturnType<typeof makeStore>) {
  return dialogGroup.selectSlice(store.getState()).entries.map(({ text, type, by }) => ({ text, type, by }));
}

describe('the conversation read back after a return', () => {
  const logs: ActivityLog[] = [
    { type: 'dialog', time: 100 * SECOND, dialog: { type: 1, text: 'Your jail starts now.', by: 'virtual' } },
    { type: 'dialog', time: 200 * SECOND, dialog: { type: 0, text: 'How long is left?' } },
    { type: 'dialog', time: 201 * SECOND, dialog: { type: 2, text: 'a report from someone else' } },
    { type: 'callup', time: 300 * SECOND, callup: { text: 'Please come back to your work now.' } },
    { type: 'motion', time: 301 * SECOND, motion: { type: 0 } },
    { type: 'dialog', time: 400 * SECOND, dialog: { type: 1, text: 'Welcome back.', by: 'virtual' } },
  ];

  it('takes the guest’s and the wardens’ lines from the logs, a callup as a human warden’s', () => {
    expect(conversationOf(logs).map(({ text, by }) => ({ text, by }))).toEqual([
      { text: 'Your jail starts now.', by: 'virtual' },
      { text: 'How long is left?', by: undefined },
      { text: 'Please come back to your work now.', by: 'human' },
      { text: 'Welcome back.', by: 'virtual' },
    ]);
  });

  it('puts them before what was heard since, each line once whichever arrives first', () => {
    const store = makeStore();
    // The welcome back arrives live before the logs are read back: not repeated.
    store.dispatch(dialogAdded({ text: 'Welcome back.', type: 1, by: 'virtual' }));
    store.dispatch(conversationRestored(conversationOf(logs)));
    expect(lines(store).map((line) => line.text)).toEqual([
      'Your jail starts now.',
      'How long is left?',
      'Please come back to your work now.',
      'Welcome back.',
    ]);

    // Read back first, then delivered live: shown once; a line said again later is a new line.
    const other = makeStore();
    other.dispatch(conversationRestored(conversationOf(logs)));
    other.dispatch(dialogAdded({ text: 'Welcome back.', type: 1, by: 'virtual' }));
    expect(lines(other).filter((line) => line.text === 'Welcome back.')).toHaveLength(1);
    other.dispatch(dialogAdded({ text: 'Welcome back.', type: 1, by: 'virtual' }));
    expect(lines(other).filter((line) => line.text === 'Welcome back.')).toHaveLength(2);
    // An old line (long before the newest read back) said again live is new too.
    other.dispatch(dialogAdded({ text: 'Your jail starts now.', type: 1, by: 'virtual' }));
    expect(lines(other).filter((line) => line.text === 'Your jail starts now.')).toHaveLength(2);
  });
});
