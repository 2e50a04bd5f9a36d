import { PathEscapeError } from '../util/safePath';

/** A refusal or failure reported to the MCP client as an `isError` result with this message. */
export class ToolError extends Error {
  readonly kind = 'ToolError';
}

/** Turns fs and path-safety failures into a message a model or user can act on. */
export function toToolError(e: unknown, rel: string): ToolError {
  if (e instanceof ToolError) return e;
  if (e instanceof PathEscapeError) return new ToolError(`refused: ${e.message}`);
  const code = (e as NodeJS.ErrnoException)?.code;
  const p = JSON.stringify(rel);
  switch (code) {
    case 'ENOENT':
      return new ToolError(`not found: ${p}`);
    case 'EACCES':
    case 'EPERM':
      return new ToolError(`permission denied: ${p}`);
    case 'ELOOP':
      return new ToolError(`refused: symlink loop at ${p}`);
    case 'EISDIR':
      return new ToolError(`is a directory: ${p}`);
    case 'ENAMETOOLONG':
      return new ToolError(`path too long: ${p}`);
    default:
      return new ToolError(`cannot read ${p}: ${(e as Error)?.message ?? String(e)}`);
  }
}
