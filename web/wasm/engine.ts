// engine.ts -- the library in WebAssembly as TypeScript sees it
// (docs/wasm.md): the module emscripten builds from src/wasm, wrapped so
// that nobody else handles its memory.  A LocalTable is the browser's own
// table of one person and bots (src/wasm/local.h): it takes the messages a
// client sends to `scopa serve` and answers with the messages the server
// sends, the same JSON.  EngineProtocol is `scopa engine` in process
// (docs/engine.md), and bench runs `scopa bench`.
//
// The factory (the default export of dist/engine/scopa.mjs) is passed in,
// so this file runs in a page, a Web Worker (worker.ts) and node (tests).

import type { ScopaFactory, ScopaModule, ScopaModuleOptions } from './scopa.mjs';

/** A message of the server's protocol (CONTRACTS.md "scopa serve"). */
export interface ServerMessage {
  type: string;
  [field: string]: unknown;
}

export class Wasm {
  private constructor(
    readonly module: ScopaModule,
    private readonly printed: string[],
  ) {}

  /** Loads scopa.wasm; options as emscripten's (wasmBinary in node). */
  static async load(factory: ScopaFactory, options: ScopaModuleOptions = {}): Promise<Wasm> {
    const printed: string[] = [];
    const module = await factory({ ...options, print: (line) => printed.push(line) });
    return new Wasm(module, printed);
  }

  /** A copy of text in the module's memory, NUL-terminated (the caller
   * frees it), and its length in bytes. */
  private cString(text: string): [number, number] {
    const size = this.module.lengthBytesUTF8(text) + 1;
    const ptr = this.module._malloc(size);
    if (!ptr) throw new Error('scopa: out of memory');
    this.module.stringToUTF8(text, ptr, size);
    return [ptr, size - 1];
  }

  /** Copies text into the module's memory for fn(ptr, length in bytes). */
  withText<T>(text: string, fn: (ptr: number, len: number) => T): T {
    const [ptr, len] = this.cString(text);
    try {
      return fn(ptr, len);
    } finally {
      this.module._free(ptr);
    }
  }

  /** The text of a malloc'd C string, which is freed; null for NULL. */
  takeText(ptr: number): string | null {
    if (!ptr) return null;
    const text = this.module.UTF8ToString(ptr);
    this.module._free(ptr);
    return text;
  }

  table(): LocalTable {
    const handle = this.module._scopa_local_new();
    if (!handle) throw new Error('scopa: out of memory');
    return new LocalTable(this, handle);
  }

  engine(): EngineProtocol {
    const out = this.module._malloc(4);
    try {
      if (this.module._scopa_engine_new(out) !== 0) throw new Error('scopa: out of memory');
      return new EngineProtocol(this, this.module.HEAPU32[out >> 2]!);
    } finally {
      this.module._free(out);
    }
  }

  /** `scopa bench ARGS...` (CONTRACTS.md): its exit status and output. */
  bench(args: string[]): { status: number; output: string } {
    const m = this.module;
    const argv = ['bench', ...args];
    const ptrs = argv.map((a) => this.cString(a)[0]);
    const array = m._malloc(4 * ptrs.length);
    ptrs.forEach((p, i) => { m.HEAPU32[(array >> 2) + i] = p; });
    this.printed.length = 0;
    try {
      const status = m._cli_bench(argv.length, array);
      return { status, output: this.printed.join('\n') };
    } finally {
      ptrs.forEach((p) => m._free(p));
      m._free(array);
    }
  }
}

function messages(text: string | null): ServerMessage[] {
  if (text === null) throw new Error('scopa: out of memory');
  return JSON.parse(text) as ServerMessage[];
}

/** The browser's own table (src/wasm/local.h). */
export class LocalTable {
  constructor(private readonly wasm: Wasm, private handle: number) {}

  /** The server's first message, {"type": "hello", ...}. */
  hello(): ServerMessage {
    const text = this.wasm.takeText(this.wasm.module._scopa_local_hello());
    if (text === null) throw new Error('scopa: out of memory');
    return JSON.parse(text) as ServerMessage;
  }

  /** One client message (an object, or its JSON text): the answers. */
  send(message: object | string): ServerMessage[] {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    return messages(this.wasm.withText(text, (p, n) =>
      this.wasm.takeText(this.wasm.module._scopa_local_send(this.live(), p, n))));
  }

  /** The move of the bot to play, if one is: its messages, else []. */
  step(): ServerMessage[] {
    return messages(this.wasm.takeText(this.wasm.module._scopa_local_step(this.live())));
  }

  /** The game's full record (every deck, the seed), or null before a create. */
  record(): string | null {
    return this.wasm.takeText(this.wasm.module._scopa_local_record(this.live()));
  }

  free(): void {
    if (this.handle) this.wasm.module._scopa_local_free(this.handle);
    this.handle = 0;
  }

  private live(): number {
    if (!this.handle) throw new Error('scopa: the table was freed');
    return this.handle;
  }
}

/** `scopa engine` in process: one request line in, one answer line out. */
export class EngineProtocol {
  constructor(private readonly wasm: Wasm, private handle: number) {}

  answer(line: string): string | null {
    const m = this.wasm.module;
    const quit = m._malloc(4);
    try {
      return this.wasm.withText(line, (p, n) =>
        this.wasm.takeText(m._scopa_engine_answer(this.handle, p, n, quit)));
    } finally {
      m._free(quit);
    }
  }

  free(): void {
    if (this.handle) this.wasm.module._scopa_engine_free(this.handle);
    this.handle = 0;
  }
}
