// scopa.d.ts -- the types of dist/engine/scopa.mjs, the ES module that
// emscripten writes for src/wasm (docs/wasm.md): a factory that loads
// scopa.wasm and resolves to the module with the C functions of
// src/wasm/CMakeLists.txt's EXPORTS.  Pointers are numbers into its memory.

export interface ScopaModuleOptions {
  /** The bytes of scopa.wasm (node, tests); otherwise it is fetched. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Where scopa.wasm is, given its name (default: next to scopa.mjs). */
  locateFile?: (path: string, prefix: string) => string;
  /** Standard output of the C code (printf): `scopa bench` prints here. */
  print?: (line: string) => void;
  printErr?: (line: string) => void;
}

export interface ScopaModule {
  HEAPU32: Uint32Array;
  UTF8ToString(ptr: number): string;
  stringToUTF8(text: string, ptr: number, max: number): void;
  lengthBytesUTF8(text: string): number;
  _malloc(size: number): number;
  _free(ptr: number): void;
  _scopa_local_new(): number;
  _scopa_local_free(table: number): void;
  _scopa_local_hello(): number;
  _scopa_local_send(table: number, text: number, len: number): number;
  _scopa_local_step(table: number): number;
  _scopa_local_record(table: number): number;
  _scopa_engine_new(out: number): number;
  _scopa_engine_free(engine: number): void;
  _scopa_engine_answer(engine: number, line: number, len: number, quit: number): number;
  _cli_bench(argc: number, argv: number): number;
}

export type ScopaFactory = (options?: ScopaModuleOptions) => Promise<ScopaModule>;

declare const createScopa: ScopaFactory;
export default createScopa;
