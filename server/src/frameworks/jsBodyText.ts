// A JavaScript/TypeScript test body as text: what a model writes, and what the offline engineer
// records in its batch artifact. Parsed back into statements before a file is built, so a body that
// does not parse is one case's reason not to be written, never a broken file.
import { print } from './jsNodes';
import { parseStatements, type Rejected } from './jsSnippet';
import { checkBindings } from './jsBody';
import type { BodyPlan, CaseBody, FrameworkRenderer, JsCaseBody } from './types';

function parseJsBody(text: string, plan: BodyPlan, async: boolean): JsCaseBody | Rejected {
  const typescript = plan.typescript;
  const badBinding = checkBindings(plan.bindings, { typescript });
  if (badBinding) return badBinding;
  const parsed = parseStatements('the test body', text, { typescript });
  if ('reason' in parsed) return parsed;
  return { language: 'javascript', statements: parsed.make(), async: async || parsed.awaits };
}

function printJsBody(body: CaseBody, typescript: boolean): string {
  if (body.language !== 'javascript') throw new Error('printJsBody: not a JavaScript body');
  return print(body.statements, typescript);
}

/** What every JavaScript renderer shares: its language and how its bodies go to text and back. */
export const JS_BODY_TEXT: Pick<FrameworkRenderer, 'language' | 'parseBody' | 'printBody'> = {
  language: 'javascript',
  parseBody: (_c, text, plan, async) => parseJsBody(text, plan, async),
  printBody: (body, plan) => printJsBody(body, plan.typescript),
};
