/*
 * transport.ts -- the one seam between the client and whatever plays the
 * game.  Today socket.ts implements it (the WebSocket to `scopa serve`);
 * a local transport (the C engine compiled to WebAssembly in a Web Worker)
 * can implement the same interface and the rest of the client does not
 * change: the reducer sees only the events below, the effect runner calls
 * only the methods below.
 *
 * What must stay true: messages come out typed (protocol.ts) and in the
 * order they were sent; a move handed to move() is kept and sent again (with
 * the same ply) until a state, a round or game end, or an error with its id
 * answers it; opened() fires on every (re)opened connection, so the reducer
 * can take the seat back.
 */
import type { ClientMsg, ServerMsg } from './protocol.js';

export type ConnStatus =
  { kind: 'connecting' } | { kind: 'open' } | { kind: 'down'; retryAt: number; attempt: number };

/** What a transport tells the client. */
export interface TransportEvents {
  /** Every message we understand, in order (a pong may be kept back). */
  message(m: ServerMsg): void;
  /** The connection went up or down: the screen says so. */
  status(s: ConnStatus): void;
  /** A (re)opened connection: the client sends resume / join / watch here. */
  opened(): void;
  /** A move was sent again after no answer (for a short notice). */
  resent?(move: string, ply: number): void;
}

/** What the client asks of a transport. */
export interface Transport {
  /** Start (once); reconnecting after a drop is the transport's job. */
  connect(): void;
  /** Close for good. */
  stop(): void;
  /** Send one message now with a fresh id; false while down (opened()
   * follows a reconnection, and the client sends its state again there). */
  send(msg: ClientMsg): number | false;
  /** Send a move and keep it until answered (see above).  `round` is the
   * dealer of its round, so a state of the next round answers it too. */
  move(move: string, ply: number, round: number | null): void;
}

/** Makes a transport that tells `events`; nothing happens (and no event
 * fires) before connect(). */
export type TransportFactory = (events: TransportEvents) => Transport;
