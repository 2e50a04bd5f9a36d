import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { allTallies, figures } from './helpers/common';

// Root-level hook: runs once after every hostile suite and writes the figures docs/security.md quotes.
after(async () => {
  const rows = allTallies().sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
  const table = [
    '| category | cases tried | failures | data lost | unapproved actions |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(([k, t]) => `| ${k} | ${t.tried} | ${t.failures} | ${t.dataLost} | ${t.unapproved} |`),
  ].join('\n');
  const notes = rows.flatMap(([k, t]) => t.notes.map((n) => `${k}: ${n}`));
  const out = path.resolve(__dirname, '../../test-output/hostile-report.json');
  await fsp.mkdir(path.dirname(out), { recursive: true });
  await fsp.writeFile(out, JSON.stringify({ tallies: Object.fromEntries(rows), figures, notes }, null, 2) + '\n');
  process.stdout.write(
    `\nHostile suite figures (${path.relative(process.cwd(), out)}):\n${table}\n${notes.map((n) => `- ${n}`).join('\n')}\n${JSON.stringify(figures, null, 2)}\n`,
  );
});
