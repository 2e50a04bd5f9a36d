import { FRAMEWORKS, type Framework, type FrameworkChoice } from '../core/frameworks';
import { FRAMEWORK_REGISTRY } from './registry';
import type { FrameworkRenderer, Project } from './types';

/** Each framework's renderer, from its descriptor (frameworks/registry.ts). */
export const RENDERERS = Object.fromEntries(FRAMEWORKS.map((f) => [f, FRAMEWORK_REGISTRY[f].renderer])) as Record<
  Framework,
  FrameworkRenderer
>;

/** `auto` takes the framework the crawler detected; with none, node:test for JS and pytest for Python. */
export function resolveFramework(choice: FrameworkChoice, project: Project): Framework {
  if (choice !== 'auto') return choice;
  const detected = project.test_setup.framework;
  if (detected === 'unittest') return 'pytest'; // pytest runs unittest suites too, and plain asserts read better
  if (detected !== 'none') return detected;
  return project.language === 'python' || project.module_system === 'python' ? 'pytest' : 'node-test';
}

/** Convention text for LLM prompts, kept in each framework's descriptor beside its renderer so both say the same thing. */
export function frameworkConventions(framework: Framework): string {
  return FRAMEWORK_REGISTRY[framework].conventions;
}

/**
 * How this project's test files import its sources and how strictly they compile: the same rule
 * importPathFor (layout.ts) follows for the import lines AMTP writes, and the runner's type check.
 */
export function projectConventions(framework: Framework, project: Project): string {
  const lines: string[] = [];
  if (project.language === 'typescript' || project.typescript) {
    const esm = project.module_system === 'esm' || FRAMEWORK_REGISTRY[framework].layout.esmImportsAlways;
    lines.push(
      esm
        ? "Source modules are imported with a `.js` extension ('../src/x.js' for src/x.ts), as the files' import lines show."
        : "Source modules are imported without an extension ('../src/x' for src/x.ts), as the files' import lines show.",
    );
  }
  const tc = project.test_setup.typecheck;
  if (tc?.checked)
    lines.push(
      `The runner type-checks each test file (${tc.evidence})${tc.strict ? ' under tsconfig strict' : ''}: one type error fails every test of the file. Give each argument its parameter's declared type; pass a deliberately wrong value through \`as unknown as T\`.`,
    );
  else if (tc) lines.push(`The runner does not type-check test files (${tc.evidence}).`);
  return lines.join('\n');
}

export type { FrameworkRenderer, Project } from './types';
