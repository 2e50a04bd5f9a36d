// The checks of flag values the table in flags.ts names: each returns the error message, or undefined.
export const oneOf = (allowed: readonly string[]) => (v: string) =>
  allowed.includes(v) ? undefined : `must be one of ${allowed.join(', ')} (got "${v}")`;
export const integer = (v: string) => (/^-?\d+$/.test(v) ? undefined : `must be an integer (got "${v}")`);
export const positive = (v: string) => (/^\d+$/.test(v) && Number(v) >= 1 ? undefined : `must be a positive integer (got "${v}")`);
export const finite = (v: string) => (v.trim() !== '' && Number.isFinite(Number(v)) ? undefined : `must be a number (got "${v}")`);

export const wholeNumber = (v: string) => (/^\d+$/.test(v) ? undefined : `must be a whole number, 0 or more (got "${v}")`);
export const positiveNumber = (v: string) => (Number(v) > 0 ? undefined : `must be a positive number (got "${v}")`);
// The value may be a secret: never echoed.
export const headerCheck = (v: string) =>
  /^[!#$%&'*+.^_`|~0-9A-Za-z-]+:/.test(v) ? undefined : "must be 'NAME: VALUE' with a valid HTTP header name";
