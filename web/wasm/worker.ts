// worker.ts -- the page's own engine in a Web Worker (docs/wasm.md): it
// speaks to the page as a WebSocket to `scopa serve` does, one JSON text
// per message both ways (CONTRACTS.md "scopa serve"), so the client's
// transport changes and nothing else.  Its first message is the server's
// hello.  After each message it plays the bots' moves one by one, posting
// each one's messages before the next bot thinks, so the page shows every
// move as it comes and never waits on the engine.
//
// A create without a "seed" gets 256 bits from crypto.getRandomValues, as
// the server draws its seeds from the operating system.  A local-table
// extension: {"type": "record"} -> {"type": "record", "record": TEXT}, the
// game's full record (every deck: show it to the player once the game is
// over; it is what the page saves and downloads).
//
// Started as a module worker: new Worker('/engine/worker.js', {type: 'module'}).

import createScopa from './scopa.mjs';
import { Wasm, type LocalTable, type ServerMessage } from './engine.js';

declare const self: {
  postMessage(data: string): void;
  onmessage: ((event: { data: unknown }) => void) | null;
};

function post(message: ServerMessage): void {
  self.postMessage(JSON.stringify(message));
}

/** 64 hex digits from crypto.getRandomValues (the first dealer depends
 * on the digits past the 32nd: scopa.h, scopa_seed_random). */
function randomSeed(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The message as an object, or null (the table itself answers what is
 * not JSON or not an object, as the server does). */
function parsed(text: string): Record<string, unknown> | null {
  try {
    const message: unknown = JSON.parse(text);
    return message && typeof message === 'object' && !Array.isArray(message)
      ? (message as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function answer(table: LocalTable, text: string): void {
  const message = parsed(text);
  if (message?.type === 'record') {
    post({ type: 'record', record: table.record() });
    return;
  }
  if (message?.type === 'create' && !('seed' in message))
    text = JSON.stringify({ ...message, seed: randomSeed() });
  table.send(text).forEach(post);
  for (let moves = table.step(); moves.length > 0; moves = table.step())
    moves.forEach(post);
}

const ready: Promise<LocalTable> = Wasm.load(createScopa).then((wasm) => {
  const table = wasm.table();
  post(table.hello());
  return table;
});
/* A worker's failed promise reaches nobody: the page hears it as the
 * server's "server" error, and knows the engine will not answer. */
ready.catch((e: unknown) => post({ type: 'error', code: 'server',
  message: `The engine could not start (${String(e)}).`,
  message_it: `Il motore non è partito (${String(e)}).` }));

self.onmessage = (event) => {
  if (typeof event.data !== 'string') return;
  const text = event.data;
  void ready.then((table) => answer(table, text));
};
