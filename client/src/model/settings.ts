// amtp.* configuration → ServerSettings. Takes a getter, so it is tested without 'vscode'.
// The keys come from server/src/core/settings.ts, the one list package.json is checked against.
import { isDepth, isFrameworkChoice } from '../../../server/src/core/frameworks';
import { isProviderName } from '../../../server/src/core/providers';
import { isRisk, isToolName, type Risk, type ToolName } from '../../../server/src/core/risk';
import { SETTINGS, type SettingKey } from '../../../server/src/core/settings';
import type * as P from '../../../server/src/protocol';
import type { PriceTable } from '../../../server/src/core/usage';

export type ConfigGetter = (key: SettingKey) => unknown;

/** What vscode.WorkspaceConfiguration offers, narrowed to what is read here. */
export interface ConfigSource {
  get(key: string): unknown;
  inspect(
    key: string,
  ): { defaultValue?: unknown; globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined;
}

/**
 * A getter that reads user-only (machine-scoped) keys from the person's settings alone. VS Code
 * already ignores workspace values of machine-scoped settings; this makes it hold whatever the
 * host does, because these keys decide where the API key goes and what needs approval.
 */
export function userSafeGetter(config: ConfigSource): ConfigGetter {
  return (key) => {
    if (SETTINGS[key].scope !== 'machine') return config.get(key);
    const i = config.inspect(key);
    return i?.globalValue ?? i?.defaultValue;
  };
}

const MAX_TEMPERATURE = 0.2;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const positiveInt = (v: unknown): number | undefined => (num(v) !== undefined && (v as number) >= 1 ? Math.floor(v as number) : undefined);

export function toServerSettings(get: ConfigGetter): P.ServerSettings {
  const provider = get('provider');
  const s: P.ServerSettings = { provider: isProviderName(provider) ? provider : 'offline' };
  const baseURL = str(get('baseURL'));
  if (baseURL) s.baseURL = baseURL;
  for (const key of ['store', 'cache', 'queue'] as const) {
    const url = str(get(key));
    if (url) s[key] = url;
  }
  readEndpoint(get, s);
  const model = str(get('model'));
  if (model) s.model = model;
  const models: NonNullable<P.ServerSettings['models']> = {};
  for (const agent of ['crawler', 'generator', 'engineer'] as const) {
    const m = str(get(`models.${agent}`));
    if (m) models[agent] = m;
  }
  if (Object.keys(models).length) s.models = models;
  const t = num(get('temperature'));
  // The pipeline's determinism contract caps temperature; clamp here too so the UI cannot exceed it.
  if (t !== undefined) s.temperature = Math.min(MAX_TEMPERATURE, Math.max(0, t));
  const seed = num(get('seed'));
  if (seed !== undefined) s.seed = Math.trunc(seed);
  const fw = get('defaultFramework');
  if (isFrameworkChoice(fw)) s.defaultFramework = fw;
  const depth = get('defaultDepth');
  if (isDepth(depth)) s.defaultDepth = depth;
  const overrides = get('riskOverrides');
  if (overrides && typeof overrides === 'object') {
    const clean: Partial<Record<ToolName, Risk>> = {};
    for (const [tool, risk] of Object.entries(overrides as Record<string, unknown>))
      if (isToolName(tool) && isRisk(risk)) clean[tool] = risk;
    if (Object.keys(clean).length) s.riskOverrides = clean;
  }
  const timeout = num(get('approvalTimeoutSeconds'));
  if (timeout !== undefined && timeout > 0) s.approvalTimeoutSeconds = timeout;
  if (get('record') === true) s.record = true;
  if (get('verify') === false) s.verify = false;
  if (get('characterize') === false) s.characterize = false;
  const runs = positiveInt(get('verifyRuns'));
  if (runs !== undefined) s.verifyRuns = runs;
  const searchBudget = positiveInt(get('searchBudgetSeconds'));
  if (searchBudget !== undefined) s.searchBudgetSeconds = searchBudget;
  const testTimeout = positiveInt(get('testTimeoutSeconds'));
  if (testTimeout !== undefined) s.testTimeoutSeconds = testTimeout;
  if (get('mutation') === false) s.mutation = false;
  const mutationBudget = positiveInt(get('mutationBudgetSeconds'));
  if (mutationBudget !== undefined) s.mutationBudgetSeconds = mutationBudget;
  if (get('intoExistingTestFile') === true) s.intoExistingTestFile = true;
  const threshold = num(get('confidenceThreshold'));
  if (threshold !== undefined && threshold >= 0 && threshold <= 1) s.confidenceThreshold = threshold;
  for (const key of ['maxInputTokens', 'concurrency'] as const) {
    const n = positiveInt(get(key));
    if (n !== undefined) s[key] = n;
  }
  return s;
}

/** Azure, headers, the request shape and the price table (the endpoint keys are user-only: see userSafeGetter). */
function readEndpoint(get: ConfigGetter, s: P.ServerSettings): void {
  const azureEndpoint = str(get('azureEndpoint'));
  if (azureEndpoint) s.azureEndpoint = azureEndpoint;
  const azureDeployment = str(get('azureDeployment'));
  if (azureDeployment) s.azureDeployment = azureDeployment;
  const azureApiVersion = str(get('azureApiVersion'));
  if (azureApiVersion) s.azureApiVersion = azureApiVersion;
  const headers = get('headers');
  if (headers && typeof headers === 'object' && !Array.isArray(headers)) {
    const clean = Object.fromEntries(
      Object.entries(headers as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
    if (Object.keys(clean).length) s.headers = clean;
  }
  const timeout = num(get('modelTimeoutSeconds'));
  if (timeout !== undefined && timeout > 0) s.modelTimeoutSeconds = timeout;
  const deadline = num(get('modelDeadlineSeconds'));
  if (deadline !== undefined && deadline > 0) s.modelDeadlineSeconds = deadline;
  const bound = positiveInt(get('maxOutputTokens'));
  if (bound !== undefined) s.maxOutputTokens = bound;
  if (get('structuredOutput') === false) s.structuredOutput = false;
  const prices = get('priceTable');
  if (prices && typeof prices === 'object' && !Array.isArray(prices) && Object.keys(prices).length) s.priceTable = prices as PriceTable;
}
