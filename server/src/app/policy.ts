// The risk policy of a run: the person's own overrides (VS Code user/machine settings, CLI flags)
// plus what the repository's .vscode/settings.json asks for, applied only where it raises a risk.
import type { RiskOverrides, RiskPolicy } from '../gateway/policy';
import { readRepoSettings } from '../gateway/repoSettings';

export async function runPolicy(
  workspace: string,
  user: RiskOverrides = {},
): Promise<{ riskPolicy: RiskPolicy; ignoredSettings: string[] }> {
  const repo = await readRepoSettings(workspace);
  return { riskPolicy: { user, repository: repo.raise }, ignoredSettings: repo.ignored };
}
