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
// The game is saved in the browser: after every message and every bot's
// move the worker puts the full record in IndexedDB (database "scopa",
// store "games", key "local"), and a {"type": "resume", "code": "LOCAL"}
// restores it (the local table's "restore", src/wasm/local.h), so a
// reload or a closed tab finds the game where it was.  The local table's
// `seated` token is "" (local.h): the worker gives "browser" in its
// place, the token under which the page keeps asking for this saved game.
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
      ? (message as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The token of the saved game in `seated` (local.h gives ""). */
export const SAVED_TOKEN = 'browser';

// ------------------------------------------------------------ saving --

const DB = 'scopa';
const STORE = 'games';
const KEY = 'local';

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB'));
  });
}

/** The database, or null where the browser has none (private modes):
 * the game is played and not saved. */
const db: Promise<IDBDatabase | null> = (() => {
  try {
    const open = indexedDB.open(DB, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE);
    return request(open).catch(() => null);
  } catch {
    return Promise.resolve(null);
  }
})();

async function save(record: string): Promise<void> {
  const d = await db;
  if (!d) return;
  const tx = d.transaction(STORE, 'readwrite');
  tx.objectStore(STORE).put({ record, saved: Date.now() }, KEY);
  await new Promise<void>((resolve) => {
    tx.oncomplete = tx.onerror = tx.onabort = () => resolve();
  });
}

async function saved(): Promise<string | null> {
  const d = await db;
  if (!d) return null;
  try {
    const got = (await request(d.transaction(STORE).objectStore(STORE).get(KEY))) as
      { record?: unknown } | undefined;
    return typeof got?.record === 'string' ? got.record : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------- the table --

function postAll(messages: ServerMessage[]): void {
  for (const m of messages)
    post(m.type === 'seated' && m.token === '' ? { ...m, token: SAVED_TOKEN } : m);
}

/** Saves the game as it now is (before the next bot thinks, so a tab
 * closed while a bot thinks resumes at the person's move at worst). */
function saveNow(table: LocalTable): Promise<void> {
  const record = table.record();
  return record === null ? Promise.resolve() : save(record);
}

async function answer(table: LocalTable, text: string): Promise<void> {
  const message = parsed(text);
  if (message?.type === 'record') {
    post({ type: 'record', record: table.record() });
    return;
  }
  if (message?.type === 'create' && !('seed' in message))
    text = JSON.stringify({ ...message, seed: randomSeed() });
  if (message?.type === 'resume' && String(message.code).toUpperCase() === 'LOCAL') {
    const record = await saved();
    if (record !== null)
      text = JSON.stringify({
        type: 'restore',
        record,
        ...('id' in message ? { id: message.id } : {}),
      });
  }
  const answers = table.send(text);
  postAll(answers);
  if (answers.some((m) => m.type === 'state')) await saveNow(table);
  for (let moves = table.step(); moves.length > 0; moves = table.step()) {
    postAll(moves);
    await saveNow(table);
  }
}

const ready: Promise<LocalTable> = Wasm.load(createScopa).then((wasm) => {
  const table = wasm.table();
  post(table.hello());
  return table;
});
/* A worker's failed promise reaches nobody: the page hears it as the
 * server's "server" error, and knows the engine will not answer. */
ready.catch((e: unknown) =>
  post({
    type: 'error',
    code: 'server',
    message: `The engine could not start (${String(e)}).`,
    message_it: `Il motore non è partito (${String(e)}).`,
  }),
);

/* One message at a time, in order: a resume waits for IndexedDB. */
let queue: Promise<void> = Promise.resolve();
self.onmessage = (event) => {
  if (typeof event.data !== 'string') return;
  const text = event.data;
  queue = queue
    .then(async () => answer(await ready, text))
    .catch((e: unknown) =>
      post({
        type: 'error',
        code: 'server',
        message: `The engine failed (${String(e)}).`,
        message_it: `Il motore ha fallito (${String(e)}).`,
      }),
    );
};
