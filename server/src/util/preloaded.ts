// A module loaded asynchronously once per process (a WebAssembly grammar, an ES module) that callers
// then use synchronously: each entry point awaits `load()` before any command runs; `get()` throws,
// naming the missing preload or the failed load, in a process that did not.

interface Names {
  /** what is loaded, as a message names it: `the JavaScript parser` */
  what: string;
  /** its package: `oxc-parser` */
  pkg: string;
  /** the call an entry point awaits, with its file: `loadJsParser() (util/jsParser.ts)` */
  preload: string;
}

export function preloaded<T>(load: () => Promise<T>, names: Names): { load(): Promise<T>; get(): T } {
  let loading: Promise<T> | undefined;
  let loaded: T | undefined;
  let failure: Error | undefined;
  return {
    load() {
      loading ??= load().then(
        (v) => (loaded = v),
        (e: Error) => {
          loading = undefined; // a later command may try again
          failure = e;
          throw e;
        },
      );
      return loading;
    },
    get() {
      if (loaded !== undefined) return loaded;
      throw new Error(
        failure
          ? `${names.what} (${names.pkg}) did not load: ${failure.message}`
          : `${names.what} is not loaded: the entry point that led here must await ${names.preload} first`,
      );
    },
  };
}
