// Opening a file a repository controls without letting its type act on AMTP. A named pipe blocks an
// open until a writer comes (a synchronous open freezes the whole event loop), a device can stream
// forever, a symlink can lead anywhere. So the type is checked before the open (lstat), the open
// itself never waits (O_NONBLOCK) nor follows a last-component symlink (O_NOFOLLOW), and the type
// is checked again on the open descriptor, in case the name was swapped in between.
import * as fs from 'node:fs';

const { O_RDONLY, O_NOFOLLOW = 0, O_NONBLOCK = 0 } = fs.constants;

/** What a path is, in words a person reads in a refusal. */
export function fileKind(st: fs.Stats): string {
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'directory';
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isFIFO()) return 'named pipe';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'device';
  return 'special file';
}

/** The path is not a regular file: nothing was read from it. */
export class NotRegularFileError extends Error {
  constructor(
    readonly file: string,
    readonly fileType: string,
  ) {
    super(`not a regular file (${fileType}): ${file}`);
  }
}

/** Opens `file` for reading when, and only when, it is a regular file. The caller closes the descriptor. */
export function openRegularFileSync(file: string): { fd: number; st: fs.Stats } {
  const before = fs.lstatSync(file);
  if (!before.isFile()) throw new NotRegularFileError(file, fileKind(before));
  const fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new NotRegularFileError(file, fileKind(st));
    return { fd, st };
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/** The bytes of a regular file of at most `maxBytes`; a larger one is an error, a special file a NotRegularFileError. */
export function readRegularFileSync(file: string, maxBytes: number): Buffer {
  const { fd, st } = openRegularFileSync(file);
  try {
    if (st.size > maxBytes) throw new Error(`${file} is ${st.size} bytes, over the ${maxBytes}-byte limit`);
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
