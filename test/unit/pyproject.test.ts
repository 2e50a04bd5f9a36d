// pyproject.toml is read with smol-toml (agents/crawler/manifests.ts), not with regexes: a
// dependency with extras, a script table after a comment or an inline table read as TOML reads it.
import { strict as assert } from 'node:assert';
import { pythonFacts, pyproject } from '../../server/src/agents/crawler/manifests';

const TOML = `[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "webkit"
dependencies = [
  "requests[socks]>=2.31",  # extras hold a ']' inside the array
  "flask>=3",
]

[project.scripts]
# the command-line tool
webkit = "webkit.cli:main"
"webkit-admin" = 'webkit.admin:run'

[tool.poetry.scripts]
legacy = { callable = "webkit.old:main" }
`;

describe('crawler: pyproject.toml as TOML', () => {
  it('dependencies past an extras bracket, scripts after a comment, the build backend', () => {
    const out = { package_managers: [], frameworks: [], entry_points: [] } as Parameters<typeof pythonFacts>[2];
    const deps = pythonFacts({ pyproject: TOML, requirements: [] }, new Set(['pyproject.toml']), out);
    assert.deepEqual(deps, ['requests', 'flask']);
    assert.deepEqual(
      out.frameworks.map((f) => f.name),
      ['flask'],
    );
    assert.deepEqual(
      out.entry_points.map((e) => [e.name, e.path]),
      [
        ['webkit', 'webkit.cli:main'],
        ['webkit-admin', 'webkit.admin:run'],
      ],
    );
    assert.deepEqual(
      out.package_managers.map((m) => m.name),
      ['poetry', 'hatch'],
    );
  });

  it('a pyproject.toml that is not TOML tells nothing instead of failing the crawl', () => {
    assert.deepEqual(pyproject('[project\nname = '), {});
  });
});
