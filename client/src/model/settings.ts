// amtp.* configuration → ServerSettings. Takes a getter, so it is tested without 'vscode'.
import type * as P from '../../../server/src/protocol';

export type ConfigGetter = (key: string) => unknown;

const FRAMEWORKS: readonly P.FrameworkChoice[] = ['auto', 'jest', 'vitest', 'mocha', 'node-test', 'pytest'];
const DEPTHS: readonly P.Depth[] = ['smoke', 'standard', 'deep'];
const RISKS = ['low', 'medium', 'high'] as const;
export const MAX_TEMPERATURE = 0.2;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export function toServerSettings(get: ConfigGetter): P.ServerSettings {
  const s: P.ServerSettings = { provider: get('provider') === 'openai' ? 'openai' : 'offline' };
  const baseURL = str(get('baseURL'));
  if (baseURL) s.baseURL = baseURL;
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
  if (FRAMEWORKS.includes(fw as P.FrameworkChoice)) s.defaultFramework = fw as P.FrameworkChoice;
  const depth = get('defaultDepth');
  if (DEPTHS.includes(depth as P.Depth)) s.defaultDepth = depth as P.Depth;
  const overrides = get('riskOverrides');
  if (overrides && typeof overrides === 'object') {
    const clean: Record<string, 'low' | 'medium' | 'high'> = {};
    for (const [tool, risk] of Object.entries(overrides as Record<string, unknown>)) {
      if ((RISKS as readonly unknown[]).includes(risk)) clean[tool] = risk as 'low' | 'medium' | 'high';
    }
    if (Object.keys(clean).length) s.riskOverrides = clean;
  }
  const timeout = num(get('approvalTimeoutSeconds'));
  if (timeout !== undefined && timeout > 0) s.approvalTimeoutSeconds = timeout;
  if (get('record') === true) s.record = true;
  return s;
}

export const FRAMEWORK_CHOICES = FRAMEWORKS;
export const DEPTH_CHOICES = DEPTHS;
