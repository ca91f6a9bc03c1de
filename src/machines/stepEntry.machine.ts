/**
 * One entry the customer types during a guided call: the ID's serial number, or the second-channel
 * code. The value is checked here first (a code has 6 digits; a serial number 1 to 40 characters), then sent
 * (`submit`). A code is right or wrong with tries left; a serial number is only sent (the agent sees the
 * comparison) and may be typed again while tries are left. Pure: `submit` comes in through `provide`.
 */
import { assign, fromPromise, setup } from 'xstate';
import { CALL_GUIDE_LIMITS } from '#contract/constants';
import type { EntryReply } from '#contract/identProcedure';

export type EntryKind = 'serial_number' | 'code';

/**
 * Why a value is not taken, said by the page in the customer's language: not the format, a wrong code, or not
 * sent (the network, or the server refused it: the code expired, the call ended).
 */
export type EntryProblem = 'codeFormat' | 'serialEmpty' | 'wrongCode' | 'failed';

export interface StepEntryContext {
  kind: EntryKind;
  value: string;
  triesLeft: number | null;
  problem: EntryProblem | null;
}

export type StepEntryEvent = { type: 'CHANGE'; value: string } | { type: 'SUBMIT' } | { type: 'AGAIN' };

/** Whether the value may be sent, or what is wrong with it. */
export function entryProblem(kind: EntryKind, value: string): EntryProblem | null {
  const trimmed = value.trim();
  if (kind === 'code') return /^\d{6}$/.test(trimmed) ? null : 'codeFormat';
  return trimmed.length >= 1 && trimmed.length <= CALL_GUIDE_LIMITS.serialLength ? null : 'serialEmpty';
}

export const stepEntryMachine = setup({
  types: {
    context: {} as StepEntryContext,
    events: {} as StepEntryEvent,
    input: {} as { kind: EntryKind },
  },
  actors: {
    submit: fromPromise<EntryReply, { kind: EntryKind; value: string }>(async () => {
      throw new Error('submit is provided by the page');
    }),
  },
  guards: {
    valid: ({ context }) => entryProblem(context.kind, context.value) === null,
  },
}).createMachine({
  id: 'stepEntry',
  context: ({ input }) => ({ kind: input.kind, value: '', triesLeft: null, problem: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        CHANGE: { actions: assign(({ event }) => ({ value: event.value })) },
        SUBMIT: [
          { guard: 'valid', target: 'sending', actions: assign({ problem: null }) },
          { actions: assign(({ context }) => ({ problem: entryProblem(context.kind, context.value) })) },
        ],
      },
    },
    sending: {
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ context }) => ({ kind: context.kind, value: context.value.trim() }),
        onDone: [
          {
            guard: ({ event }) => event.output.accepted,
            target: 'sent',
            actions: assign(({ event }) => ({ triesLeft: event.output.tries_left })),
          },
          {
            guard: ({ event }) => event.output.tries_left === 0,
            target: 'spent',
            actions: assign(({ event }) => ({
              triesLeft: event.output.tries_left,
              problem: 'wrongCode' as const,
            })),
          },
          {
            target: 'editing',
            actions: assign(({ event }) => ({
              triesLeft: event.output.tries_left,
              problem: 'wrongCode' as const,
              value: '',
            })),
          },
        ],
        onError: { target: 'editing', actions: assign({ problem: 'failed' as const }) },
      },
    },
    /** Accepted: a code is right; a serial number is with the agent (typed again while tries are left). */
    sent: {
      on: {
        AGAIN: {
          guard: ({ context }) => context.kind === 'serial_number' && (context.triesLeft ?? 0) > 0,
          target: 'editing',
          actions: assign({ value: '', problem: null }),
        },
      },
    },
    /** A code typed wrong every time: the agent may send a new one (the page then starts a fresh entry). */
    spent: {},
  },
});
