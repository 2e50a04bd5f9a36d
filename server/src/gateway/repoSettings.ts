// What a repository's own .vscode/settings.json says about AMTP, read the way the person's safety
// needs: keys that decide where requests and keys go, or what needs approval, are never taken from
// it (they are reported so the person can see the attempt); risk overrides are taken only where
// they raise a risk. The CLI and the language server both read it through here.
import { promises as fsp } from 'node:fs';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { TOOL_RISK, higherRisk, isRisk, isToolName } from '../core/risk';
import { USER_ONLY_SETTINGS, userOnlyReason } from '../core/settings';
import { resolveInside } from '../util/safePath';
import type { RiskOverrides } from './policy';

const REPO_SETTINGS_FILE = '.vscode/settings.json';
const MAX_BYTES = 1024 * 1024;

export interface RepoSettings {
  /** risk overrides the repository asks for that raise a risk (applied) */
  raise: RiskOverrides;
  /** one line per ignored key or entry, for the log and the run's audit */
  ignored: string[];
}

export async function readRepoSettings(workspace: string): Promise<RepoSettings> {
  const empty: RepoSettings = { raise: {}, ignored: [] };
  let text: string;
  try {
    const abs = await resolveInside(workspace, REPO_SETTINGS_FILE);
    const st = await fsp.lstat(abs);
    if (!st.isFile()) return empty;
    if (st.size > MAX_BYTES) return { ...empty, ignored: [`${REPO_SETTINGS_FILE} is larger than 1 MiB; AMTP ignores it`] };
    text = await fsp.readFile(abs, 'utf8');
  } catch {
    return empty; // absent, or a path that leaves the workspace (a symlink): nothing to honour
  }
  const errors: ParseError[] = [];
  const doc: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length || !doc || typeof doc !== 'object' || Array.isArray(doc)) {
    const why = errors.length ? printParseErrorCode(errors[0].error) : 'not an object';
    return { ...empty, ignored: [`${REPO_SETTINGS_FILE} does not parse (${why}); AMTP ignores it`] };
  }
  return interpret(amtpKeys(doc as Record<string, unknown>));
}

/** `amtp.x` keys, also written as a nested `"amtp": {"x": …}` object. */
function amtpKeys(doc: Record<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(doc)) if (k.startsWith('amtp.')) out.set(k.slice(5), v);
  const nested = doc.amtp;
  if (nested && typeof nested === 'object' && !Array.isArray(nested)) for (const [k, v] of Object.entries(nested)) out.set(k, v);
  return out;
}

function interpret(keys: Map<string, unknown>): RepoSettings {
  const out: RepoSettings = { raise: {}, ignored: [] };
  for (const key of USER_ONLY_SETTINGS) {
    if (!keys.has(key) || key === 'riskOverrides') continue;
    out.ignored.push(`${REPO_SETTINGS_FILE} sets amtp.${key}; AMTP ignores it: ${userOnlyReason(key)}`);
  }
  const overrides = keys.get('riskOverrides');
  if (overrides === undefined) return out;
  if (!overrides || typeof overrides !== 'object' || Array.isArray(overrides)) {
    out.ignored.push(`${REPO_SETTINGS_FILE} sets amtp.riskOverrides to something that is not an object; AMTP ignores it`);
    return out;
  }
  for (const [tool, risk] of Object.entries(overrides)) {
    if (!isToolName(tool) || !isRisk(risk)) {
      out.ignored.push(
        `${REPO_SETTINGS_FILE}: amtp.riskOverrides ${JSON.stringify(tool)}: ${JSON.stringify(risk)} names no known tool and risk; ignored`,
      );
      continue;
    }
    const base = TOOL_RISK[tool];
    if (risk === base) continue;
    if (higherRisk(risk, base) === risk) out.raise[tool] = risk;
    else
      out.ignored.push(
        `${REPO_SETTINGS_FILE} asks to lower ${tool} from ${base} to ${risk}; AMTP ignores it: ${userOnlyReason('riskOverrides')}`,
      );
  }
  return out;
}
