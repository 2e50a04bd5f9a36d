// The StrykerJS instrumenter in a child process of its own (server/src/mutation/js/instrument.ts
// starts it): built as its own bundle (dist/mutationWorker.js), so babel loads only when mutation
// runs, in a process that holds no secret, with a cwd of its own where no project's babel config
// can be found, and the language server's thread stays free. Reads one JSON request on stdin and
// writes one JSON answer on stdout.
import type { Instrumenter } from '@stryker-mutator/instrumenter';
import { ACH_IGNORERS } from './ignorers';

export interface InstrumentRequest {
  /** absolute names (under the worker's cwd, never the workspace) and the source text */
  files: { name: string; content: string }[];
}

export interface WorkerMutant {
  id: string;
  fileName: string;
  mutatorName: string;
  replacement: string;
  /** 0-based lines and columns, as StrykerJS reports them */
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
  /** set for a mutant an ACH filter left out */
  statusReason?: string;
  status?: string;
}

export interface InstrumentAnswer {
  files: { name: string; content: string }[];
  mutants: WorkerMutant[];
  /** files the instrumenter could not parse, with why */
  failed: { name: string; error: string }[];
}

const quiet = () => false;
const noop = () => undefined;
const logger = {
  isTraceEnabled: quiet,
  isDebugEnabled: quiet,
  isInfoEnabled: quiet,
  isWarnEnabled: quiet,
  isErrorEnabled: quiet,
  isFatalEnabled: quiet,
  trace: noop,
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  fatal: noop,
};

/** The instrumenter's injector, reduced to what createInstrumenter asks of it. */
async function instrumenter(): Promise<Instrumenter> {
  // A dynamic import: the package is ESM-only, and Node's ESM loader gives its babel imports their CommonJS default.
  const { createInstrumenter } = await import('@stryker-mutator/instrumenter');
  const provided: Record<string, unknown> = {};
  const injector = {
    provideValue(key: string, value: unknown) {
      provided[key] = value;
      return injector;
    },
    injectClass(C: new (...args: unknown[]) => Instrumenter) {
      return new C(logger, provided.instrumenterCreateParser, provided.instrumenterPrint, provided.instrumenterTransform);
    },
  };
  return createInstrumenter(injector as unknown as Parameters<typeof createInstrumenter>[0]);
}

const OPTIONS = { plugins: null, excludedMutations: [], ignorers: ACH_IGNORERS };

/** One instrumenter pass over every file (mutant ids are unique across them); a file that does not parse is left out. */
export async function instrumentAll(req: InstrumentRequest): Promise<InstrumentAnswer> {
  const ins = await instrumenter();
  const failed: InstrumentAnswer['failed'] = [];
  let files = req.files.map((f) => ({ ...f, mutate: true as const }));
  try {
    const r = await ins.instrument(files, OPTIONS as never);
    return { files: r.files.map(({ name, content }) => ({ name, content })), mutants: r.mutants as WorkerMutant[], failed };
  } catch {
    // Find the files that do not parse, then instrument the rest together.
    for (const f of req.files) {
      try {
        await ins.instrument([{ ...f, mutate: true }], OPTIONS as never);
      } catch (e) {
        failed.push({ name: f.name, error: (e instanceof Error ? e.message : String(e)).split('\n')[0] });
      }
    }
    files = files.filter((f) => !failed.some((x) => x.name === f.name));
    const r = await ins.instrument(files, OPTIONS as never);
    return { files: r.files.map(({ name, content }) => ({ name, content })), mutants: r.mutants as WorkerMutant[], failed };
  }
}

async function main(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const answer = await instrumentAll(JSON.parse(Buffer.concat(chunks).toString('utf8')) as InstrumentRequest);
  process.stdout.write(JSON.stringify(answer));
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
}
