'use strict';

const UNITS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses a duration such as "2h" or "1.5 d" into milliseconds.
 *
 * @param {string} text a number followed by one of ms, s, m, h, d
 * @returns {number} milliseconds
 * @throws {TypeError} when the text is not a duration
 * @example
 * parseDuration('2h') // => 7200000
 * parseDuration('1.5 d') // => 129600000
 */
function parseDuration(text) {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(String(text));
  if (!match) throw new TypeError(`not a duration: ${text}`);
  return Number(match[1]) * UNITS[match[2]];
}

/**
 * Formats a byte count with binary units.
 *
 * @param {number} bytes
 * @returns {string}
 * @example
 * formatBytes(1024) // => '1 KB'
 * formatBytes(1536) // => '1.5 KB'
 */
function formatBytes(bytes) {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Math.round(value * 10) / 10} ${units[unit]}`;
}

/**
 * Keeps a number within [min, max].
 *
 * @example
 * clamp(5, 0, 3) // => 3
 * clamp(-1, 0, 3) // => 0
 */
function clamp(value, min, max) {
  return Math.min(max, Math.max(min, value));
}

/**
 * Turns a title into a URL slug.
 *
 * @example
 * slugify('Hello, World!') // => 'hello-world'
 */
function slugify(title) {
  return String(title)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

module.exports = { parseDuration, formatBytes, clamp, slugify };
