/**
 * How the socket's events reach the agent's machines (no React here, so the truth test drives the very same
 * wiring against the real server): the agent's own `agent.status` goes to the availability machine, whose
 * verdict (Online, free and connected, as the server holds it) tells the desk whether it may ring; call and
 * queue events go to the desk.
 */
import type { ActorRefFrom } from 'xstate';
import { type agentAvailabilityMachine, canAnswer } from '../../../machines/agentAvailability.machine';
import type { callDeskMachine } from '../../../machines/callDesk.machine';
import type { Realtime, RealtimeEvent } from '../../../services/socket';

export interface DeskParts {
  realtime: Pick<Realtime, 'subscribe' | 'close'>;
  availability: ActorRefFrom<typeof agentAvailabilityMachine>;
  desk: ActorRefFrom<typeof callDeskMachine>;
}

/** Starts the machines and feeds them; returns the teardown (machines stopped, socket closed). */
export function wireDesk(parts: DeskParts, agentId: number, setConnected: (up: boolean) => void): () => void {
  const { realtime, availability, desk } = parts;
  availability.start();
  desk.start();
  const own = availability.subscribe((snapshot) =>
    desk.send({ type: 'AVAILABILITY', canAnswer: canAnswer(snapshot.context) }),
  );
  const stop = realtime.subscribe((event: RealtimeEvent) => {
    if (event.type === 'AGENT.STATUS') {
      if (event.user_id === agentId)
        availability.send({ type: 'AGENT.STATUS', status: event.status, call_id: event.call_id });
      return;
    }
    // Stats are read by their views; a step recorded goes to the call's steps panel (GuidedCallView);
    // notifications to the bell.
    if (
      event.type === 'STATS.UPDATE' ||
      event.type === 'STEP.RECORDED' ||
      event.type === 'CHECK.DONE' ||
      event.type === 'NOTIFICATION.NEW' ||
      event.type === 'NOTIFICATION.UNREAD'
    )
      return;
    if (event.type === 'CONNECTION.LOST' || event.type === 'CONNECTION.RESTORED') {
      setConnected(event.type === 'CONNECTION.RESTORED');
      availability.send(event);
    }
    desk.send(event);
  });
  return () => {
    stop();
    own.unsubscribe();
    desk.stop();
    availability.stop();
    realtime.close();
  };
}
