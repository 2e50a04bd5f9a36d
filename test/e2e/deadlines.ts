// The e2e layers wait on state (a run's status, a view's content, a file on disk), never for a fixed
// time. Every deadline derives from the one below: it is how long any single awaited state may take
// on a busy 2-core CI machine. A wait ends as soon as its state is reached, so a generous deadline
// costs nothing when things go well; it only decides how long a real failure takes to report.
// Shared by the runners (Node) and the extension-host suite (bundled by test/vscode/build.mjs).

/** One awaited state: a run to finish, a view to render, an approval to arrive. */
export const STATE_DEADLINE_MS = 3 * 60_000;

/** One extension-host test, which may wait on a few states in turn (mocha's per-test timeout). */
export const TEST_DEADLINE_MS = 3 * STATE_DEADLINE_MS;

/** A whole layer (the extension-host suite, the UI test): if it runs past this, something hangs. */
export const LAYER_DEADLINE_MS = 8 * STATE_DEADLINE_MS;

type NotYet = undefined | null | false;

/**
 * Polls `fn` with backoff (50 ms doubling to 1 s) until it returns something other than
 * undefined / null / false, and returns that; throws once the deadline has passed.
 */
export async function until<T>(what: string, fn: () => T | NotYet | Promise<T | NotYet>, ms = STATE_DEADLINE_MS): Promise<T> {
  const end = Date.now() + ms;
  for (let pause = 50; ; pause = Math.min(1000, pause * 2)) {
    const v = await fn();
    if (v !== undefined && v !== null && v !== false) return v as T;
    if (Date.now() > end) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pause));
  }
}

/** `promise`, or an error naming `what` once the deadline has passed. */
export async function within<T>(what: string, promise: Promise<T>, ms = STATE_DEADLINE_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms / 1000} s waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
