// The ids of the test frameworks AMTP renders and runs, written by `npm run gen:frameworks` from
// frameworks/registry.ts (a lower layer's copy: every layer checks ids with it). The CLI, the settings,
// the schemas' enums, the prompts and package.json agree with it (test/unit/singleSource.test.ts).
export const FRAMEWORKS = ['jest', 'vitest', 'mocha', 'node-test', 'pytest', 'ava', 'node-tap'] as const;
export type Framework = (typeof FRAMEWORKS)[number];

/** what a person may choose: a framework, or `auto` for the one the project already uses */
export const FRAMEWORK_CHOICES = ['auto', ...FRAMEWORKS] as const;
export type FrameworkChoice = (typeof FRAMEWORK_CHOICES)[number];

export const DEPTHS = ['smoke', 'standard', 'deep'] as const;
export type Depth = (typeof DEPTHS)[number];

export function isFramework(v: unknown): v is Framework {
  return (FRAMEWORKS as readonly unknown[]).includes(v);
}

export function isFrameworkChoice(v: unknown): v is FrameworkChoice {
  return (FRAMEWORK_CHOICES as readonly unknown[]).includes(v);
}

export function isDepth(v: unknown): v is Depth {
  return (DEPTHS as readonly unknown[]).includes(v);
}
