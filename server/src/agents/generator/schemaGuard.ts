// The offline generator's output must always validate (a run that fails its own schema ends in
// needs_review with no tests): a case the schema rejects is moved to not_planned with the reason,
// so one odd symbol never costs the rest.
import type { TestCases } from '../../contracts/types';
import { validate } from '../../contracts/validate';

export function keepValidCases(doc: TestCases): TestCases {
  let current = doc;
  // Each pass drops every case an error points into; a document-level error is not ours to hide.
  for (let pass = 0; pass < 3; pass++) {
    const r = validate('test-cases', current);
    if (r.ok) return current;
    const bad = new Map<number, string>();
    for (const e of r.errors) {
      const m = /^\/cases\/(\d+)(\/.*)?$/.exec(e.path);
      if (m && !bad.has(Number(m[1]))) bad.set(Number(m[1]), `${m[2] ?? '/'}: ${e.message}`);
    }
    if (!bad.size) return current;
    const dropped = current.cases.flatMap((c, i) =>
      bad.has(i)
        ? [
            {
              target: `${c.target.file}#${c.target.symbol}`,
              reason: `planned case '${c.title.slice(0, 80)}' broke the test-cases schema (${bad.get(i)})`,
            },
          ]
        : [],
    );
    const notPlanned = [...(current.not_planned ?? []), ...dropped];
    current = { ...current, cases: current.cases.filter((_c, i) => !bad.has(i)), not_planned: notPlanned };
  }
  return current;
}
