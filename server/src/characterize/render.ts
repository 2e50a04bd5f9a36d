// Every characterization case's title starts with CHAR_PREFIX, so the tree view, the verifier and a
// reader can tell a pinned current behaviour from a documented one.
import { CHAR_PREFIX } from '../frameworks/header';

export { CHAR_PREFIX };
