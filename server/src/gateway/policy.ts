// Who may change which risk. The person's own settings (VS Code user/machine scope) and CLI flags
// may lower or raise a tool's risk. A repository (its .vscode/settings.json) may only raise it:
// it may ask for more caution, never less.
import { TOOL_RISK, higherRisk, type Risk, type ToolName } from '../core/risk';

export type RiskOverrides = Partial<Record<ToolName, Risk>>;

export interface RiskPolicy {
  /** from the person: any direction */
  user?: RiskOverrides;
  /** from the repository: applied only where it raises the risk */
  repository?: RiskOverrides;
}

export function riskOf(tool: ToolName, policy: RiskPolicy = {}): Risk {
  const base = policy.user?.[tool] ?? TOOL_RISK[tool];
  const asked = policy.repository?.[tool];
  return asked ? higherRisk(base, asked) : base;
}
