/**
 * Model-based testing of machines: paths generated from the machine itself (xstate/graph) are replayed on a
 * running actor whose effects are stubbed with promises the replay settles, so every reachable state and
 * every transition that changes state is exercised, not only the happy path.
 */
import {
  type AnyActorRef,
  type AnyStateMachine,
  type EventObject,
  fromPromise,
  initialTransition,
  type Snapshot,
  transition,
  waitFor,
} from 'xstate';
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths } from 'xstate/graph';

interface Pending {
  input: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Promise actors whose results the replay decides, by actor id (= src name). */
export class Effects {
  private readonly pending = new Map<string, Pending[]>();
  readonly inputs = new Map<string, unknown[]>();

  actor(id: string) {
    return fromPromise<unknown, unknown>(
      ({ input }) =>
        new Promise((resolve, reject) => {
          this.inputs.set(id, [...(this.inputs.get(id) ?? []), input]);
          this.pending.set(id, [...(this.pending.get(id) ?? []), { input, resolve, reject }]);
        }),
    );
  }

  async settle(id: string, outcome: { output: unknown } | { error: unknown }): Promise<void> {
    for (let i = 0; i < 100 && !this.pending.get(id)?.length; i++) await new Promise((r) => setTimeout(r, 0));
    const next = this.pending.get(id)?.shift();
    if (!next) throw new Error(`no running ${id} to settle`);
    if ('output' in outcome) next.resolve(outcome.output);
    else next.reject(outcome.error);
  }
}

type MachineSnapshot = Snapshot<unknown> & { value: unknown; context: unknown };

export interface ModelOptions<TEvent extends EventObject> {
  events: readonly TEvent[] | ((snapshot: never) => readonly TEvent[]);
  input?: unknown;
  /**
   * What makes two snapshots the same vertex (default: value and context). A coarser key must keep whatever
   * decides the machine's next steps: the paths are run again from the start on the machine's own transitions,
   * and a path whose snapshots do not get the keys the graph gave them fails (the key merged snapshots that
   * behave differently). Each case then expects those exact snapshots, full context included.
   */
  serializeState?: (snapshot: MachineSnapshot) => string;
}

export interface ReplayCase {
  name: string;
  steps: { event: EventObject; state: MachineSnapshot }[];
}

const defaultSerialize = (s: MachineSnapshot) => JSON.stringify({ value: s.value, context: s.context });
const describeEvent = (e: EventObject) => e.type.replace(/^xstate\.(done|error)\.actor\./, '$1:');

/** One case per reachable state (its shortest path) and per state-changing transition. */
export function modelCases<TEvent extends EventObject>(
  machine: AnyStateMachine,
  options: ModelOptions<TEvent>,
): ReplayCase[] {
  const serializeState = options.serializeState ?? defaultSerialize;
  const traversal = { events: options.events, input: options.input, serializeState } as never;
  // createTestModel refuses machines that invoke actors; the path generators it uses do not.
  // A running actor ignores events once it is done; the graph does not, so paths through a final state go.
  const isDone = (state: unknown) => (state as { status?: string }).status === 'done';
  const shortest = getShortestPaths(machine, traversal).filter((p) =>
    p.steps.slice(0, -1).every((step) => !isDone(step.state)),
  );
  const pathTo = new Map(shortest.map((p) => [serializeState(p.state as MachineSnapshot), p]));
  // A vertex's snapshot is the first one the graph met with its key: with a coarse key, not the one its path
  // leads to. The path is run again to get the snapshots it really passes through.
  const exact = (steps: ReplayCase['steps']): ReplayCase['steps'] => {
    if (!options.serializeState) return steps;
    let [snapshot] = initialTransition(machine, options.input);
    return steps.map((step) => {
      if (step.event.type !== 'xstate.init') [snapshot] = transition(machine, snapshot, step.event);
      const state = snapshot as unknown as MachineSnapshot;
      if (serializeState(state) !== serializeState(step.state))
        throw new Error(
          `serializeState merges snapshots that behave differently: after ${step.event.type} ` +
            `${serializeState(state)} is not ${serializeState(step.state)}`,
        );
      return { event: step.event, state };
    });
  };
  const cases: ReplayCase[] = shortest.map((p) => ({
    name: `reaches ${JSON.stringify((p.state as MachineSnapshot).value)} via ${p.steps.map((s) => describeEvent(s.event)).join(' → ') || 'start'}`,
    steps: exact(p.steps as ReplayCase['steps']),
  }));
  for (const edge of adjacencyMapToArray(getAdjacencyMap(machine, traversal))) {
    const from = serializeState(edge.state as MachineSnapshot);
    const to = serializeState(edge.nextState as MachineSnapshot);
    const prefix = pathTo.get(from);
    if (from === to || !prefix || isDone(edge.state)) continue;
    cases.push({
      name: `${JSON.stringify((edge.state as MachineSnapshot).value)} --${describeEvent(edge.event as EventObject)}--> ${JSON.stringify((edge.nextState as MachineSnapshot).value)}`,
      steps: exact([
        ...(prefix.steps as ReplayCase['steps']),
        { event: edge.event as EventObject, state: edge.nextState as MachineSnapshot },
      ]),
    });
  }
  return cases;
}

/** Replays a case on a running actor; after each step its value and context must equal the model's. */
export async function replay(actor: AnyActorRef, effects: Effects, testCase: ReplayCase): Promise<void> {
  actor.start();
  for (const step of testCase.steps) {
    const { event } = step;
    if (event.type === 'xstate.init') {
      // The start state.
    } else if (event.type.startsWith('xstate.done.actor.')) {
      await effects.settle(event.type.slice('xstate.done.actor.'.length), {
        output: (event as { output?: unknown }).output,
      });
    } else if (event.type.startsWith('xstate.error.actor.')) {
      await effects.settle(event.type.slice('xstate.error.actor.'.length), {
        error: (event as { error?: unknown }).error,
      });
    } else {
      actor.send(event);
    }
    const expected = JSON.stringify({ value: step.state.value, context: step.state.context });
    await waitFor(
      actor,
      (s: MachineSnapshot) => JSON.stringify({ value: s.value, context: s.context }) === expected,
      {
        timeout: 1000,
      },
    ).catch(() => {
      const s = actor.getSnapshot() as MachineSnapshot;
      throw new Error(
        `after ${event.type}: expected ${expected}\n  got ${JSON.stringify({ value: s.value, context: s.context })}`,
      );
    });
  }
  actor.stop();
}

export const done = (id: string, output?: unknown) =>
  ({ type: `xstate.done.actor.${id}`, output }) as EventObject;
export const failed = (id: string, error: unknown) =>
  ({ type: `xstate.error.actor.${id}`, error }) as EventObject;
