// `amtp worker [DIR] --queue redis://… --store postgres://…`: answers the model calls of queued runs
// for the commit DIR is at, with this machine's own provider settings, until Ctrl-C or SIGTERM.
import { createProvider } from '../app/providers';
import { endpointOf, scaleSettings, sharedLimits, workspaceCommit } from '../app/scale';
import { openRunStore, track } from '../app/store';
import { UsageError } from '../core/errors';
import type { LlmProvider } from '../llm/provider';
import { EXIT } from '../core/exitCodes';
import { PostgresStore } from '../store/postgres';
import { JobRefused } from '../queue/errors';
import { startWorker } from '../queue/worker';
import { defaultProvider, endpointSettings } from './endpointOptions';
import type { FlagValues } from './flags';
import { err, workspaceArg } from './io';
import { backoffFromEnv } from '../app/runDeps';

export async function worker(positionals: string[], v: FlagValues, signal: AbortSignal): Promise<number> {
  const ws = await workspaceArg(positionals[0]);
  const s = scaleSettings({ store: v.store, cache: v.cache, queue: v.queue });
  if (!s.queue) throw new UsageError('amtp worker needs --queue redis://HOST:PORT (or AMTP_QUEUE): the queue the runs send their jobs to');
  const store = openRunStore(ws, s.store);
  if (!(store instanceof PostgresStore))
    throw new UsageError('amtp worker needs --store postgres://… (or AMTP_STORE): the store the runs keep their requests and answers in');
  await workspaceCommit(ws); // a clear error now, not at the first job
  await store.init();
  const settingsFor = (name: string) => endpointSettings(name, v, process.env);
  const mine = defaultProvider(v.provider, process.env);
  const providers = new Map<string, LlmProvider>();
  const providerFor = (name: string): LlmProvider => {
    if (name !== 'offline' && name !== mine)
      throw new JobRefused(`the job's run uses the ${name} provider; this worker is set up for ${mine} (--provider)`);
    if (!providers.has(name)) providers.set(name, createProvider({ log: (l) => err(`amtp: ${l}`), ...settingsFor(name) }));
    return providers.get(name)!;
  };
  const running = track(
    await startWorker({
      queueUrl: s.queue,
      store,
      commit: () => workspaceCommit(ws),
      providerFor,
      limitFor: await sharedLimits(s, endpointOf(settingsFor(mine))),
      concurrency: v.jobs ? Number(v.jobs) : 1,
      backoff: backoffFromEnv(),
      log: (line) => err(`amtp: ${line}`),
    }),
  );
  const why = await Promise.race([stopped(signal).then(() => undefined), running.stoppedItself]);
  err(`amtp: worker stopping after ${running.answered()} answered job(s); a job it was running goes back to the queue`);
  if (why) err(`amtp: ${why}`);
  return why ? EXIT.failed : EXIT.ok;
}

/** Until Ctrl-C (the CLI's signal) or SIGTERM (a service manager). */
function stopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
    process.once('SIGTERM', () => resolve());
  });
}
