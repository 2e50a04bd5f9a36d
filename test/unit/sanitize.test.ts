import { strict as assert } from 'node:assert';
import { sanitize, SANITIZER_VERSION } from '../../server/src/llm/sanitize';

describe('sanitize v1.0.0', () => {
  it('is version v1.0.0', () => assert.equal(SANITIZER_VERSION, 'v1.0.0'));

  const cases: [string, string, string][] = [
    ['```json fence', '```json\n{"a":1}\n```', '{"a":1}'],
    ['bare ``` fence', '```\n{"a":1}\n```', '{"a":1}'],
    ['fence with CRLF', '```json\r\n{"a":1}\r\n```\r\n', '{"a":1}'],
    ['no fence, whitespace', '  \n{"a":1}\n\t ', '{"a":1}'],
    ['only a leading fence (truncated reply)', '```json\n{"a":1', '{"a":1'],
    ['only a trailing fence', '{"a":1}\n```', '{"a":1}'],
    ['one fence only: the inner fence stays', '```json\n```json\n{}\n```\n```', '```json\n{}\n```'],
    ['prose before is kept (no smart extraction)', 'Here you go:\n```json\n{}\n```', 'Here you go:\n```json\n{}'],
    ['prose after is kept', '```json\n{}\n```\nHope this helps!', '{}\n```\nHope this helps!'],
    ['no re-casing: ```JSON is not a json fence', '```JSON\n{}\n```', 'JSON\n{}'],
    ['string content is never touched', '{"s":"```json  x  ```"}', '{"s":"```json  x  ```"}'],
    ['empty', '', ''],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => assert.equal(sanitize(input), expected));
  }

  it('is pure: same input, same output, input unchanged', () => {
    const input = '```json\n{"k": [1, 2]}\n```';
    const copy = input.slice();
    assert.equal(sanitize(input), sanitize(input));
    assert.equal(input, copy);
  });

  it('does not re-serialize: spacing and key order inside the JSON survive', () => {
    assert.equal(sanitize('```json\n{ "b" : 1,  "a":2 }\n```'), '{ "b" : 1,  "a":2 }');
  });
});
