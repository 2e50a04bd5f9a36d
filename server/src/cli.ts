import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { crawlMap, crawlWorkspace } from './agents/crawler/staticMap';
import { runMcpStdio } from './mcp/stdio';
import { approveAll, deferAll, ttyApprover } from './gateway/approvers';
import type { Approver } from './gateway/gateway';
import { USAGE, parseCli, riskFlags, type Parsed } from './cli/args';
import { runPolicy } from './app/policy';
import { standardStages } from './app/stages';
import type { RiskOverrides } from './gateway/policy';
import { AmtpError, UsageError, errorMessage } from './core/errors';
import { resolveParams } from './pipeline/config';
import { resumeRun, startRun } from './pipeline/orchestrator';
import type { PipelineDeps, PipelineEvent } from './pipeline/deps';
import { createProvider, type ProviderSettings } from './app/providers';
import { defaultProvider, endpointSettings, priceTableOption, secretsOf } from './cli/endpointOptions';
import { RunStore } from './pipeline/store';
import { EXIT, exitCodeFor, summarize, type RunSummary } from './pipeline/summary';
import type { AgentId } from './core/agents';
import type { RunRecord } from './core/run';
import { newRunId } from './core/ids';
import { recordedDeps } from './record/wire';
import { replayRecording } from './record/replay';
import { verifyDeterminism } from './record/verify';
import { canonicalJson } from './core/canonical';
import { DEFAULT_VERIFY } from './core/run';
import { formatAgentHealth, formatRunHealth, formatRunUsage } from './core/usageFormat';

const err = (line: string) => process.stderr.write(line + '\n');

async function workspaceArg(dir: string | undefined): Promise<string> {
  const ws = path.resolve(dir ?? process.cwd());
  const st = await fsp.stat(ws).catch(() => undefined);
  if (!st?.isDirectory()) throw new UsageError(`not a directory: ${ws}`);
  return ws;
}

function approverFor(yes: boolean | undefined): Approver {
  if (yes) return approveAll;
  if (process.stdin.isTTY && process.stderr.isTTY) return ttyApprover(process.stdin, process.stderr);
  return deferAll; // no person to ask: nothing risky happens; `amtp approve` decides later
}

/** Pipeline wiring for the CLI. Endpoints and keys come from flags and the environment, risks from --risk: the person's own. */
async function deps(ws: string, llm: ProviderSettings, approver: Approver, signal: AbortSignal, risk: RiskOverrides = {}): Promise<PipelineDeps> {
  return {
    workspace: ws,
    store: new RunStore(ws),
    provider: createProvider({ ...llm, log: (line) => err(`amtp: info: ${line}`) }),
    approver,
    stages: standardStages(),
    crawl: crawlMap,
    signal,
    backoff: backoffFromEnv(),
    onEvent: logEvent,
    ...(await runPolicy(ws, risk)),
  };
}

/** Test and CI knob: AMTP_BACKOFF_SCALE=0.001 makes the spec's 7.5 s / 1.5 s waits milliseconds. */
function backoffFromEnv(): PipelineDeps['backoff'] {
  const scale = Number(process.env.AMTP_BACKOFF_SCALE);
  if (!Number.isFinite(scale) || scale <= 0) return undefined;
  return { rateLimitBaseMs: 7500 * scale, transientBaseMs: 1500 * scale, maxDelayMs: 120_000 * scale };
}

function logEvent(e: PipelineEvent): void {
  if (e.type === 'activity') err(`amtp: ${e.agent} (attempt ${e.attempt})`);
  else if (e.type === 'log') err(`amtp: ${e.level}: ${e.message}`);
}

function printSummary(s: RunSummary, json: boolean | undefined): void {
  if (json) {
    process.stdout.write(JSON.stringify(s) + '\n');
    return;
  }
  const out: string[] = [`run ${s.runId}: ${s.status}${s.reason ? ` — ${s.reason}` : ''}`];
  for (const a of s.activities) out.push(`  ${a.agent.padEnd(9)} ${a.status.padEnd(12)} attempts=${a.attempts}${a.errors.length ? ` errors=${a.errors.map((e) => e.kind).join(',')}` : ''}`);
  const t = s.usage.total;
  if (t.promptTokens + t.completionTokens + (t.unreported ?? 0) > 0) out.push(`  usage: ${formatRunUsage(s.usage)}`); // the offline provider spends none
  out.push(`  health: ${formatRunHealth(s.health)}`);
  for (const h of s.health.agents) out.push(`    ${formatAgentHealth(h)}`);
  out.push(`  cases: ${s.cases.length}`);
  for (const f of s.files) out.push(`  ${f.action.padEnd(11)} ${f.path}`);
  for (const a of s.approvals.filter((x) => x.decision === 'pending')) out.push(`  pending approval: ${a.tool} ${a.target ?? ''}`);
  const v = s.verification;
  if (v) {
    out.push(`  verification: ${v.status}${v.reason ? ` — ${v.reason}` : ''}${v.executions ? ` (${v.executions} runner invocations)` : ''}`);
    for (const f of v.filters) out.push(`    ${f.step.padEnd(17)} kept ${f.kept}, dropped ${f.dropped}${f.quarantined ? `, quarantined ${f.quarantined}` : ''}${f.skipped ? ` (${f.skipped})` : ''}`);
    if (v.coverage.before !== undefined || v.coverage.after !== undefined) out.push(`    coverage ${v.coverage.before ?? '?'}% → ${v.coverage.after ?? '?'}%`);
    for (const r of v.results.filter((x) => x.outcome !== 'passing')) out.push(`    ${r.outcome.padEnd(11)} ${r.caseId}: ${r.reason ?? ''}`);
    for (const u of v.unmet) out.push(`    unmet goal ${u.priority} ${u.caseId}: ${u.title}`);
  }
  process.stdout.write(out.join('\n') + '\n');
}

async function finish(run: RunRecord, store: RunStore, json: boolean | undefined): Promise<number> {
  printSummary(await summarize(run, store), json);
  return exitCodeFor(run.status);
}

async function main(argv: string[], signal: AbortSignal): Promise<number> {
  let p: Parsed;
  p = parseCli(argv);
  const v = p.values;
  switch (p.command) {
    case 'help':
      process.stdout.write(USAGE + '\n');
      return EXIT.ok;
    case 'generate': {
      const ws = await workspaceArg(p.positionals[0]);
      const provider = defaultProvider(v.provider, process.env);
      const llm = endpointSettings(provider, v, process.env);
      const models: Partial<Record<AgentId, string>> = {
        crawler: v['crawler-model'] ?? process.env.AMTP_CRAWLER_MODEL,
        generator: v['generator-model'] ?? process.env.AMTP_GENERATOR_MODEL,
        engineer: v['engineer-model'] ?? process.env.AMTP_ENGINEER_MODEL,
      };
      const params = resolveParams(
        {
          depth: v.depth as never, framework: v.framework as never, provider, model: v.model ?? process.env.AMTP_MODEL, models,
          seed: v.seed !== undefined ? Number(v.seed) : undefined, temperature: v.temperature !== undefined ? Number(v.temperature) : undefined,
          maxAttempts: v['max-attempts'] !== undefined ? Number(v['max-attempts']) : undefined,
        },
        (m) => err(`amtp: warning: ${m}`),
      );
      // Verification is on by default; it is skipped (with the reason recorded) when the tests cannot run here.
      params.verify = {
        ...DEFAULT_VERIFY,
        enabled: !v['no-verify'],
        ...(v.runs !== undefined ? { runs: Number(v.runs) } : {}),
        ...(v['test-timeout'] !== undefined ? { timeoutSeconds: Number(v['test-timeout']) } : {}),
      };
      const prices = await priceTableOption(v, process.env);
      if (prices) params.prices = prices;
      const d = await deps(ws, llm, approverFor(v.yes), signal, riskFlags(v.risk));
      const runId = newRunId();
      if (!v.record) return finish(await startRun(d, params, runId), d.store, v.json);
      const { deps: recording, recorder } = recordedDeps(d, params, runId, path.resolve(v.record), secretsOf(llm));
      try {
        const run = await startRun(recording, params, runId);
        err(`amtp: recorded to ${v.record}`);
        return await finish(run, d.store, v.json);
      } finally {
        recorder.close();
      }
    }
    case 'resume': {
      const ws = await workspaceArg(p.positionals[1]);
      const store = new RunStore(ws);
      const run = await store.getRun(p.positionals[0]);
      if (!run) throw new UsageError(`no run ${p.positionals[0]} in ${store.dir}`);
      const d = await deps(ws, endpointSettings(run.params.provider, v, process.env), approverFor(v.yes), signal, riskFlags(v.risk));
      return finish(await resumeRun(d, run.id), store, v.json);
    }
    case 'approve': {
      const ws = await workspaceArg(p.positionals[1]);
      const store = new RunStore(ws);
      const run = await store.getRun(p.positionals[0]);
      if (!run) throw new UsageError(`no run ${p.positionals[0]} in ${store.dir}`);
      const pending = run.approvals.filter((a) => a.decision === 'pending');
      if (!pending.length) throw new UsageError(`run ${run.id} has no pending approvals (status ${run.status})`);
      const decision = v.reject ? 'rejected' : 'approved';
      const now = new Date().toISOString();
      const saved = await store.saveRun({
        ...run,
        approvals: run.approvals.map((a) => (a.decision === 'pending' ? { ...a, decision, note: v.note, decidedBy: 'cli approve', decidedAt: now } : a)),
        // Pending files are settled again on resume, now with a decision on record.
        files: run.files.filter((f) => f.action !== 'pending'),
      });
      err(`amtp: ${decision} ${pending.length} action(s) of run ${run.id}`);
      const d = await deps(ws, endpointSettings(run.params.provider, {}, process.env), deferAll, signal);
      return finish(await resumeRun(d, saved.id), store, v.json);
    }
    case 'runs': {
      const ws = await workspaceArg(p.positionals[0]);
      const runs = await new RunStore(ws).listRuns();
      if (v.json) process.stdout.write(JSON.stringify(runs.map((r) => ({ runId: r.id, status: r.status, stage: r.stage, createdAt: r.createdAt, updatedAt: r.updatedAt, reason: r.reason }))) + '\n');
      else process.stdout.write(runs.map((r) => `${r.id}  ${r.status.padEnd(17)} ${r.stage.padEnd(9)} ${r.createdAt}${r.reason ? `  ${r.reason}` : ''}`).join('\n') + (runs.length ? '\n' : 'no runs\n'));
      return EXIT.ok;
    }
    case 'crawl': {
      const ws = await workspaceArg(p.positionals[0]);
      const { map } = await crawlWorkspace(ws);
      if (v.json) process.stdout.write(JSON.stringify(map) + '\n');
      else {
        process.stdout.write(`${map.project.name}: ${map.tree.files} files, ${map.languages.map((l) => `${l.name} ${l.files}`).join(', ')}\n`);
        process.stdout.write(`tests: ${map.test_setup.framework} in ${map.test_setup.test_dirs.join(', ') || '(none)'}; entry points: ${map.entry_points.map((e) => e.path).join(', ') || '(none)'}\n`);
        process.stdout.write(`key files: ${map.key_files.length}; examples: ${map.usage_examples.length}; skipped: ${map.skipped.length}\n`);
      }
      return EXIT.ok;
    }
    case 'replay': {
      const out = path.resolve(v.out ?? (await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-replay-'))));
      const inject = process.env.AMTP_INJECT_NONDETERMINISM; // fault injection for the determinism tests
      const result = await replayRecording(path.resolve(p.positionals[0]), out, { inject: inject === 'tool' || inject === 'reply' ? inject : undefined, pinned: v.pinned });
      if (v.json) process.stdout.write(canonicalJson(result) + '\n');
      else {
        const final = result.final as { status?: string } | null;
        process.stdout.write(`replayed ${result.trace.length} recorded events into ${out}: ${final?.status ?? 'no run'}${result.error ? ` — ${result.error}` : ''}\n`);
        for (const f of result.files) process.stdout.write(`  file ${f.path}\n`);
      }
      return result.error ? EXIT.failed : EXIT.ok;
    }
    case 'verify-determinism': {
      const file = path.resolve(p.positionals[0]);
      await fsp.access(file).catch(() => { throw new UsageError(`no such recording: ${file}`); });
      const r = await verifyDeterminism(file, process.argv[1]);
      if (r.identical) {
        process.stdout.write(r.summary + '\n');
        return EXIT.ok;
      }
      err(r.diff ?? '');
      err(`amtp: NOT deterministic: ${r.summary}`);
      return 1;
    }
    case 'mcp':
      // stdout belongs to the MCP protocol from here on; logs go to stderr.
      await runMcpStdio(await workspaceArg(p.positionals[0]));
      return EXIT.ok;
    default:
      throw new UsageError(`unknown command "${p.command}"`);
  }
}

const controller = new AbortController();
process.once('SIGINT', () => {
  err('amtp: cancelling…');
  controller.abort();
});
main(process.argv.slice(2), controller.signal).then(
  (code) => { process.exitCode = code; },
  (e) => {
    if (e instanceof UsageError) {
      err(`amtp: ${e.message}\n\n${USAGE}`);
      process.exitCode = EXIT.usage;
    } else {
      err(`amtp: ${e instanceof AmtpError ? `${e.kind}: ` : ''}${errorMessage(e)}`);
      process.exitCode = EXIT.failed;
    }
  },
);
