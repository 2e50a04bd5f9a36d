// The MCP SDK gives every Server and Client its own Ajv instance with the formats added, built in
// the constructor (~5-10 ms each in a fresh process). AMTP's tools declare no output schema and
// the crawler's in-process pair never elicits, so most connections never validate a JSON Schema:
// this one builds the SDK's own validator on the first schema it is asked for.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';

export function lazyJsonSchemaValidator(): jsonSchemaValidator {
  let real: jsonSchemaValidator | undefined;
  return { getValidator: (schema) => (real ??= new AjvJsonSchemaValidator()).getValidator(schema) };
}
