// The two shorthands the subject lists are written with (subjects.mjs, subjects-seen.mjs).

/** An npm package run with one framework, at `frameworkRange` (its own devDependency) or AMTP's version. */
export const npm = (spec, framework, frameworkRange, kinds, why, extra = {}) => ({
  name: spec,
  from: 'npm',
  spec,
  frameworks: [framework],
  ...(frameworkRange ? { frameworkRange } : {}),
  kinds,
  why,
  ...extra,
});

/** A Debian pure-Python package (apt-get download), run with pytest; `version` is what the table shows. */
export const deb = (spec, version, kinds, why) => ({ name: `${spec} (${version})`, from: 'deb', spec, frameworks: ['pytest'], kinds, why });
