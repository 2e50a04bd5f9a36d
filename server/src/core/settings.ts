// The one list of AMTP's VS Code settings (`amtp.<key>`). package.json's contributes.configuration
// must match it (test/unit/settings.test.ts), the client reads exactly these keys, and the server
// knows from it which keys a repository may never set.
//
// Scope decides who may set a key. `machine` keys (where requests and keys go, what needs approval)
// are the person's: VS Code ignores workspace values of them, and AMTP ignores such values in a
// repository's .vscode/settings.json with a warning in the log and the run's audit.
type SettingScope = 'machine' | 'window' | 'resource';

export interface SettingSpec {
  scope: SettingScope;
  /** why a repository may not set it (machine scope only) */
  userOnly?: string;
  /** read by the VS Code client itself (e.g. whether to show CodeLenses), never sent to the server */
  clientOnly?: true;
}

const WHERE_REQUESTS_GO = "where requests and the API key go is the person's choice, never the repository's";

export const SETTINGS = {
  provider: { scope: 'machine', userOnly: WHERE_REQUESTS_GO },
  baseURL: { scope: 'machine', userOnly: WHERE_REQUESTS_GO },
  azureEndpoint: { scope: 'machine', userOnly: WHERE_REQUESTS_GO },
  azureDeployment: { scope: 'machine', userOnly: WHERE_REQUESTS_GO },
  azureApiVersion: { scope: 'machine', userOnly: WHERE_REQUESTS_GO },
  headers: { scope: 'machine', userOnly: 'headers travel with the API key and may carry credentials; only the person sets them' },
  store: { scope: 'machine', userOnly: "where run state goes is the person's choice, never the repository's" },
  cache: { scope: 'machine', userOnly: "which servers AMTP talks to is the person's choice, never the repository's" },
  queue: { scope: 'machine', userOnly: "where requests go is the person's choice, never the repository's" },
  modelTimeoutSeconds: { scope: 'window' },
  modelDeadlineSeconds: { scope: 'window' },
  maxOutputTokens: { scope: 'window' },
  structuredOutput: { scope: 'window' },
  priceTable: { scope: 'window' },
  model: { scope: 'window' },
  'models.crawler': { scope: 'window' },
  'models.generator': { scope: 'window' },
  'models.engineer': { scope: 'window' },
  temperature: { scope: 'window' },
  seed: { scope: 'window' },
  defaultFramework: { scope: 'resource' },
  defaultDepth: { scope: 'resource' },
  riskOverrides: { scope: 'machine', userOnly: 'a repository may raise a risk (ask for more caution), never lower one' },
  approvalTimeoutSeconds: { scope: 'window' },
  record: { scope: 'window' },
  verify: { scope: 'resource' },
  verifyRuns: { scope: 'resource' },
  characterize: { scope: 'resource' },
  mutation: { scope: 'resource' },
  mutationBudgetSeconds: { scope: 'resource' },
  searchBudgetSeconds: { scope: 'resource' },
  testTimeoutSeconds: { scope: 'resource' },
  intoExistingTestFile: { scope: 'resource' },
  confidenceThreshold: {
    scope: 'machine',
    userOnly: "the threshold decides which tests wait for a person's review; a repository may not lower it",
  },
  maxInputTokens: { scope: 'window' },
  concurrency: { scope: 'window' },
  codeLens: { scope: 'window', clientOnly: true },
  // saving a file starts a run that runs workspace code: the person turns that on, never a repository
  generateOnSave: {
    scope: 'machine',
    userOnly: "whether saving a file starts a run is the person's choice, never the repository's",
    clientOnly: true,
  },
} as const satisfies Record<string, SettingSpec>;

/** amtp.store, amtp.cache, amtp.queue as the server receives them (docs/scale.md); the store is read when the server starts. */
export interface ScaleUrls {
  /** empty for the .amtp/ files, or postgres://… */
  store?: string;
  /** redis:// or valkey:// for the shared 429 hold and MCP results */
  cache?: string;
  /** redis:// or valkey:// of the queue `amtp worker` processes serve (needs a Postgres store) */
  queue?: string;
}

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

/** Keys the server receives (ServerSettings); the rest the client reads itself. */
export const SERVER_SETTINGS = SETTING_KEYS.filter((k) => !(SETTINGS[k] as SettingSpec).clientOnly);

/** Keys a repository's settings may never set (they are read from the person's own settings only). */
export const USER_ONLY_SETTINGS = SETTING_KEYS.filter((k) => SETTINGS[k].scope === 'machine');

export function userOnlyReason(key: SettingKey): string | undefined {
  const spec: SettingSpec = SETTINGS[key];
  return spec.userOnly;
}
