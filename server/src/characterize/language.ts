// The one place the characterize stage picks an engine by module language: JavaScript runs in the
// Node sandbox (characterize.ts), Python in a CPython child (python/characterize.ts), both with the
// same signature. TypeScript sources would need a loader in the child.
import { characterizeModule } from './characterize';
import { characterizePythonModule } from './python/characterize';

export type Characterizer = typeof characterizeModule;

export function characterizerFor(language: 'javascript' | 'typescript' | 'python'): Characterizer | undefined {
  if (language === 'javascript') return characterizeModule;
  if (language === 'python') return characterizePythonModule;
  return undefined;
}
