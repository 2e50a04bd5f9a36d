// Endpoint resolution, the request body, refusal handling, strict-mode checks, the CLI's endpoint
// options, and that no key or header value survives into an error message.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { endpointSettings, defaultProvider, secretsOf } from '../../server/src/cli/endpointOptions';
import { parseCli } from '../../server/src/cli/args';
import { SCHEMAS } from '../../server/src/contracts/schemas';
import { CapabilityMemory, userCacheDir } from '../../server/src/llm/capabilities';
import { resolveEndpoint } from '../../server/src/llm/endpoint';
import { LlmConfigError } from '../../server/src/llm/errors';
import { mapOpenAiError } from '../../server/src/llm/openaiErrors';
import { afterRefusal, chatBody, defaultCapabilities } from '../../server/src/llm/requestShape';
import { responseFormat, strictBlocker } from '../../server/src/llm/structuredOutput';
import { REDACTED, redactText, redactValue } from '../../server/src/util/redact';

describe('endpoint resolution', () => {
  it('openai: a key → Bearer form; a base URL without a key → keyless; neither → a message naming both ways out', () => {
    assert.deepEqual(resolveEndpoint({ kind: 'openai', apiKey: 'sk-aaaaaaaa' }).target, {
      form: 'openai',
      baseURL: 'https://api.openai.com/v1',
      apiKey: 'sk-aaaaaaaa',
    });
    assert.deepEqual(resolveEndpoint({ kind: 'openai', baseURL: 'http://localhost:11434/v1/' }).target, {
      form: 'keyless',
      baseURL: 'http://localhost:11434/v1',
    });
    assert.throws(
      () => resolveEndpoint({ kind: 'openai' }),
      (e: Error) =>
        e instanceof LlmConfigError && /OPENAI_API_KEY/.test(e.message) && /OPENAI_BASE_URL/.test(e.message) && /Ollama/.test(e.message),
    );
  });

  it('azure: the resource URL is the classic form (default api-version), …/openai/v1 the v1 form; a deployment URL is refused with the fix', () => {
    assert.deepEqual(resolveEndpoint({ kind: 'azure', apiKey: 'k-123456', azureEndpoint: 'https://r.openai.azure.com/' }).target, {
      form: 'azure-classic',
      endpoint: 'https://r.openai.azure.com',
      apiKey: 'k-123456',
      apiVersion: '2024-10-21',
    });
    assert.deepEqual(resolveEndpoint({ kind: 'azure', apiKey: 'k-123456', baseURL: 'https://r.openai.azure.com/openai/v1' }).target, {
      form: 'azure-v1',
      baseURL: 'https://r.openai.azure.com/openai/v1',
      apiKey: 'k-123456',
    });
    assert.throws(
      () => resolveEndpoint({ kind: 'azure', apiKey: 'k-123456', azureEndpoint: 'https://r.openai.azure.com/openai/deployments/d' }),
      /resource URL only .*AMTP adds the deployment path itself/,
    );
    assert.equal(
      resolveEndpoint({ kind: 'azure', apiKey: 'k-123456', azureEndpoint: 'https://r.openai.azure.com', azureDeployment: 'd' }).where,
      'https://r.openai.azure.com (deployment d, api-version 2024-10-21)',
    );
  });

  it('refuses URLs that are not http(s) or carry credentials, and bad headers; defaults the timeout to 600 s and the bound to 4096', () => {
    assert.throws(() => resolveEndpoint({ kind: 'openai', baseURL: 'file:///etc/passwd' }), /must be http:\/\/ or https:\/\//);
    assert.throws(() => resolveEndpoint({ kind: 'openai', baseURL: 'https://user:pw@x.example/v1' }), /must not carry credentials/);
    assert.throws(() => resolveEndpoint({ kind: 'openai', baseURL: 'not a url' }), /is not a URL/);
    assert.throws(
      () => resolveEndpoint({ kind: 'openai', baseURL: 'http://x', headers: { 'Bad Name': 'v' } }),
      /not a valid HTTP header name/,
    );
    assert.throws(
      () => resolveEndpoint({ kind: 'openai', baseURL: 'http://x', headers: { 'X-A': 'a\r\nInjected: 1' } }),
      /one-line string value/,
    );
    const ep = resolveEndpoint({ kind: 'openai', baseURL: 'http://x', headers: { 'X-Title': 'AMTP', 'X-Token': 'tok-123456789' } });
    assert.equal(ep.idleTimeoutMs, 600_000);
    assert.equal(ep.maxOutputTokens, 4096);
    assert.deepEqual(ep.secrets, ['tok-123456789'], 'header values long enough to be secrets; "AMTP" is too short to redact safely');
  });
});

describe('request body', () => {
  const req = {
    agent: 'crawler' as const,
    model: 'm',
    temperature: 0.1,
    top_p: 1 as const,
    seed: 7,
    messages: [
      { role: 'system' as const, content: 's' },
      { role: 'user' as const, content: 'u' },
    ] as [{ role: 'system'; content: string }, { role: 'user'; content: string }],
  };

  it('api.openai.com and Azure get max_completion_tokens; other endpoints max_tokens', () => {
    assert.equal(defaultCapabilities(resolveEndpoint({ kind: 'openai', apiKey: 'sk-aaaaaaaa' }).target).bound, 'max_completion_tokens');
    assert.equal(
      defaultCapabilities(resolveEndpoint({ kind: 'openai', apiKey: 'sk-aaaaaaaa', baseURL: 'https://openrouter.ai/api/v1' }).target).bound,
      'max_tokens',
    );
    assert.equal(
      defaultCapabilities(resolveEndpoint({ kind: 'azure', apiKey: 'k-123456', azureEndpoint: 'https://r.openai.azure.com' }).target).bound,
      'max_completion_tokens',
    );
  });

  it('no response_format without a schema, or when structured output is off', () => {
    const ep = resolveEndpoint({ kind: 'openai', baseURL: 'http://x' });
    const caps = defaultCapabilities(ep.target);
    assert.deepEqual(chatBody(req, ep, caps), {
      model: 'm',
      messages: req.messages,
      temperature: 0.1,
      top_p: 1,
      seed: 7,
      max_tokens: 4096,
      stream: true,
      stream_options: { include_usage: true },
    });
    const off = resolveEndpoint({ kind: 'openai', baseURL: 'http://x', structuredOutput: false });
    assert.equal(chatBody({ ...req, responseSchema: { name: 'x', schema: { type: 'object' } } }, off, caps).response_format, undefined);
  });

  it('afterRefusal: only 400/422 that name a parameter this request sent, and for bounds only "not supported" wording', () => {
    const ep = resolveEndpoint({ kind: 'openai', baseURL: 'http://x' });
    const caps = defaultCapabilities(ep.target);
    const body = chatBody(
      { ...req, responseSchema: { name: 'x', schema: { type: 'object', additionalProperties: false, properties: {} } } },
      ep,
      caps,
    );
    assert.deepEqual(
      afterRefusal(400, "Invalid schema for response_format 'x': ...", body, caps),
      { format: 'loose' },
      'strict refused → non-strict',
    );
    assert.deepEqual(
      afterRefusal(
        400,
        'json_schema is not supported by this backend',
        { ...body, response_format: responseFormat('x', { type: 'object' }, false) },
        caps,
      ),
      { format: 'off' },
    );
    assert.equal(afterRefusal(500, 'response_format broke', body, caps), undefined);
    assert.deepEqual(
      afterRefusal(422, 'Extra inputs are not permitted: stream_options', body, caps),
      { streamUsage: false },
      'response_format stays when the refusal names something else',
    );
    const plain = chatBody(req, ep, caps);
    assert.deepEqual(afterRefusal(422, 'extra fields not permitted: stream_options', plain, caps), { streamUsage: false });
    assert.deepEqual(
      afterRefusal(
        400,
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        plain,
        caps,
      ),
      { bound: 'max_completion_tokens' },
    );
    assert.equal(afterRefusal(400, 'max_tokens is too large: 4096', plain, caps), undefined);
    assert.equal(afterRefusal(400, 'messages must not be empty', plain, caps), undefined);
  });
});

describe('structured output', () => {
  it("strict only where OpenAI's strict subset allows; AMTP's contracts say why not", () => {
    assert.equal(
      strictBlocker({
        type: 'object',
        additionalProperties: false,
        required: ['a'],
        properties: {
          a: {
            type: 'array',
            items: { type: 'object', additionalProperties: false, required: ['b'], properties: { b: { enum: ['x', 'y'] } } },
          },
        },
      }),
      undefined,
    );
    assert.equal(strictBlocker(SCHEMAS['test-cases']), '/ has optional not_planned');
    assert.equal(strictBlocker(SCHEMAS['repair-output']), '/ uses allOf');
    assert.equal(
      strictBlocker({
        type: 'object',
        additionalProperties: false,
        properties: {},
        required: [],
        $defs: { d: { type: 'object', properties: {} } },
      }),
      '/$defs/d allows additional properties',
    );
    assert.equal(strictBlocker({ type: 'array' }), 'the root is not an object');
    const rf = responseFormat('crawler output!', SCHEMAS['crawler-output'] as Record<string, unknown>, true);
    assert.equal(rf.json_schema.name, 'crawler_output_');
    assert.equal(rf.json_schema.strict, false);
    assert.ok(!('$schema' in rf.json_schema.schema) && !('$id' in rf.json_schema.schema));
  });
});

describe('errors carry no secret', () => {
  it('a key or header value echoed by the endpoint is cut out of every kind of message', () => {
    const ep = resolveEndpoint({
      kind: 'openai',
      apiKey: 'sk-echoed-key-1234567890',
      baseURL: 'http://x/v1',
      headers: { 'X-Gateway-Token': 'gw-echoed-5555' },
    });
    for (const status of [400, 401, 429, 500, undefined]) {
      const e = Object.assign(new Error(`${status ?? ''} bad key sk-echoed-key-1234567890 / gw-echoed-5555 / ECONNRESET`), { status });
      const mapped = mapOpenAiError(e, ep) as Error;
      assert.ok(!mapped.message.includes('sk-echoed-key') && !mapped.message.includes('gw-echoed-5555'), `${status}: ${mapped.message}`);
    }
  });
});

describe('capability memory', () => {
  it('keeps only known values from a hand-edited cache file, and a broken file is an empty memory', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-capmem-'));
    try {
      const file = path.join(dir, 'endpoints.json');
      const key = CapabilityMemory.key('http://x', 'm');
      await fsp.writeFile(file, JSON.stringify({ version: 1, endpoints: { [key]: { format: 'off', bound: 'huge', evil: true } } }));
      const defaults = { format: 'strict', bound: 'max_tokens', streamUsage: true } as const;
      assert.deepEqual(new CapabilityMemory(file).get(key, defaults), { format: 'off', bound: 'max_tokens', streamUsage: true });
      await fsp.writeFile(file, '{broken');
      assert.deepEqual(new CapabilityMemory(file).get(key, defaults), defaults);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });

  it('lives in the user cache dir (AMTP_CACHE_DIR, else XDG_CACHE_HOME or ~/.cache on Linux)', () => {
    assert.equal(userCacheDir({ AMTP_CACHE_DIR: '/c' }), '/c');
    if (process.platform === 'linux') {
      assert.equal(userCacheDir({ XDG_CACHE_HOME: '/x' }), '/x/amtp');
      assert.equal(userCacheDir({}), path.join(os.homedir(), '.cache', 'amtp'));
    }
  });
});

describe('CLI endpoint options', () => {
  const values = (args: string[]) => parseCli(['generate', ...args]).values;

  it('a key or a base URL in the environment makes openai the default provider', () => {
    assert.equal(defaultProvider(undefined, {}), 'offline');
    assert.equal(defaultProvider(undefined, { OPENAI_BASE_URL: 'http://localhost:11434/v1' }), 'openai');
    assert.equal(defaultProvider(undefined, { OPENAI_API_KEY: 'sk-x', AMTP_PROVIDER: 'azure' }), 'azure');
    assert.equal(defaultProvider('offline', { OPENAI_API_KEY: 'sk-x' }), 'offline');
  });

  it("flags win over the environment; Azure reads the SDK's variable names; headers merge", () => {
    const env = {
      AZURE_OPENAI_API_KEY: 'az-key',
      OPENAI_API_KEY: 'oa-key',
      AZURE_OPENAI_ENDPOINT: 'https://env.openai.azure.com',
      OPENAI_API_VERSION: '2024-06-01',
      AMTP_HEADERS: '{"X-Title":"env","X-Env":"1"}',
      AMTP_TIMEOUT_SECONDS: '1200',
      AMTP_DEADLINE_SECONDS: '900',
      AMTP_MAX_OUTPUT_TOKENS: '8000',
      AMTP_STRUCTURED_OUTPUT: '0',
    };
    const s = endpointSettings(
      'azure',
      values(['--azure-endpoint', 'https://flag.openai.azure.com', '--header', 'X-Title: flag', '--timeout', '30', '--deadline', '45']),
      env,
    );
    assert.deepEqual(s, {
      provider: 'azure',
      apiKey: 'az-key',
      baseURL: undefined,
      azureEndpoint: 'https://flag.openai.azure.com',
      azureDeployment: undefined,
      azureApiVersion: '2024-06-01',
      headers: { 'X-Title': 'flag', 'X-Env': '1' },
      timeoutSeconds: 30,
      deadlineSeconds: 45,
      maxOutputTokens: 8000,
      structuredOutput: false,
    });
    assert.equal(endpointSettings('openai', values([]), env).apiKey, 'oa-key', 'openai never takes the Azure key');
    assert.deepEqual(secretsOf(s), ['az-key', 'flag', '1']);
  });

  it('bad values are usage errors that never echo a header value', () => {
    assert.throws(() => endpointSettings('openai', values([]), { AMTP_HEADERS: '["x"]' }), /AMTP_HEADERS must be a JSON object/);
    assert.throws(
      () => endpointSettings('openai', values([]), { AMTP_TIMEOUT_SECONDS: 'soon' }),
      /AMTP_TIMEOUT_SECONDS must be a positive number/,
    );
    assert.throws(
      () => endpointSettings('openai', values([]), { AMTP_MAX_OUTPUT_TOKENS: '1e9.5' }),
      /AMTP_MAX_OUTPUT_TOKENS must be a positive integer/,
    );
    assert.throws(
      () => values(['--header', 'sk-secret-without-a-name']),
      (e: Error) => /NAME: VALUE/.test(e.message) && !e.message.includes('sk-secret'),
    );
    assert.throws(() => values(['--timeout', '0']), /--timeout must be a positive number/);
    assert.throws(() => values(['--timeout', 'later']), /--timeout must be a positive number/);
    assert.throws(() => parseCli(['crawl', '--timeout', '5']), /--timeout does not apply to "crawl"/);
  });
});

describe('redaction of endpoint credentials', () => {
  it('Azure and gateway header names are redacted as object keys and as key=value text', () => {
    assert.deepEqual(
      redactValue({ 'api-key': 'abc', 'Ocp-Apim-Subscription-Key': 'def', 'Proxy-Authorization': 'ghi', 'X-Title': 'AMTP' }),
      { 'api-key': REDACTED, 'Ocp-Apim-Subscription-Key': REDACTED, 'Proxy-Authorization': REDACTED, 'X-Title': 'AMTP' },
    );
    assert.equal(redactText('rejected subscription-key: 0123456789abcdef'), `rejected subscription-key: ${REDACTED}`);
    assert.equal(
      redactText('usage {"prompt_tokens": 1234567, "completion_tokens": 567890}'),
      'usage {"prompt_tokens": 1234567, "completion_tokens": 567890}',
      'token counts are not secrets',
    );
  });
});
