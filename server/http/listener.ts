import { Server } from 'node:net';

/** How many turns of the event loop a stop waits at most for connections still arriving. */
const MAX_TURNS = 50;

/**
 * Stops accepting connections without resetting those the kernel has already accepted for us.
 *
 * A connection whose handshake the kernel has completed waits in the listening socket's queue until the event
 * loop takes it; closing the listener resets everything still queued. A load balancer has sent its request on
 * such a connection, and may not pass a POST or an upload it has sent on to another process: the client would
 * get a 502 though it reached us before the stop. A SIGTERM handled in the same turn as such a connection's
 * arrival (or while the loop was busy) meets exactly that. So the listener closes only after a turn of the loop
 * in which no new connection came in, at most MAX_TURNS turns: whatever was queued has been taken and is
 * served; what comes later is refused, which a balancer retries elsewhere at once.
 *
 * Only the listener closes (net.Server's close): http's close() also drops the idle keep-alive connections,
 * and one the balancer is sending a request on at that instant would be reset the same way.
 */
export function closeListener(server: Server): Promise<void> {
  return new Promise((resolve) => {
    let arrived = false;
    const onConnection = () => {
      arrived = true;
    };
    server.on('connection', onConnection);
    let turns = 0;
    const turn = () =>
      setImmediate(() => {
        turns++;
        // The first turn may end before the loop has polled again (the stop began in this turn's poll phase):
        // only a turn with a poll behind it can tell that nothing is queued.
        if ((turns === 1 || arrived) && turns < MAX_TURNS) {
          arrived = false;
          turn();
          return;
        }
        server.off('connection', onConnection);
        Server.prototype.close.call(server);
        resolve();
      });
    turn();
  });
}
