// Which AMTP made a run: its version and, in a bundle, a hash of the sources it was built from
// (esbuild.mjs defines AMTP_BUILD). An incremental run takes an earlier run's results only when the
// same engine made them: after an upgrade or a rebuild, what the engine would now find may differ.
import { version } from '../../../package.json';

declare const AMTP_BUILD: string | undefined;

export const AMTP_ENGINE: string = typeof AMTP_BUILD === 'string' ? `${version}+${AMTP_BUILD}` : version;
