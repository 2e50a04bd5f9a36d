// Which peers of a set of packages a node_modules folder resolved: the bench's measuring folder adds
// them at those versions, so the kept files load there as they loaded in AMTP's run (prepare.mjs).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The peers of `deps` that a node_modules folder holds, at the exact versions it holds, except those `deps` names. */
export function peersIn(modules, deps) {
  const manifest = (name) => {
    const file = join(modules, name, 'package.json');
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
  };
  const peers = {};
  for (const name of Object.keys(deps).sort()) {
    for (const peer of Object.keys(manifest(name)?.peerDependencies ?? {}).sort()) {
      const version = manifest(peer)?.version;
      if (version && !(peer in deps)) peers[peer] = version;
    }
  }
  return peers;
}
