// End-to-end test of `squall serve`'s POST /v1/embeddings driven by the official OpenAI
// Node client (the version pinned in package.json).
//
//   node tests/live/client/openai_embeddings_test.mjs SQUALL_BINARY
//
// Serves tests/live/scenarios/retrieval.json, whose embedder answers its second call 503.
// The SDK asks for base64 when no encoding_format is given and decodes it to floats
// (openai 4.95 resources/embeddings.js); asked for 'float' it returns the JSON numbers.
// Checks: both give the same vector for the same text (the float32 values exactly), the
// 503 is retried once and the retry succeeds, `dimensions` shortens to a unit vector, and
// the report counts the calls by outcome.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { attemptLog, serve } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const scenario = join(here, '..', 'scenarios', 'retrieval.json');
const squall = process.argv[2];
assert.ok(squall, 'usage: openai_embeddings_test.mjs SQUALL_BINARY');

const dir = mkdtempSync(join(process.env.TMPDIR ?? tmpdir(), 'squall-live-'));
const reportPath = join(dir, 'report.json');
const server = serve(squall, scenario, reportPath);
const baseURL = await server.url;
const { fetch: loggingFetch, call, log } = attemptLog({ requestId: 'x-request-id' });
const client = new OpenAI({ baseURL: `${baseURL}/v1`, apiKey: 'sk-squall-test', fetch: loggingFetch });
const model = 'text-embedding-3-small';
const input = ['Reset your password', 'Export your data'];

await call('default', () => client.embeddings.create({ model, input }));
await call('retried', () => client.embeddings.create({ model, input: 'x' }));
await call('float', () => client.embeddings.create({ model, input, encoding_format: 'float' }));
await call('short', () => client.embeddings.create({ model, input: input[0], dimensions: 8 }));
await fetch(`${baseURL}/squall/v1/stop`, { method: 'POST' });
assert.equal(await server.exited, 0);

// Default: base64 on the wire, decoded by the SDK.
const decoded = log.default.result.data.map((d) => d.embedding);
assert.equal(log.default.attempts.length, 1);
assert.deepEqual(log.default.result.usage, { prompt_tokens: 9, total_tokens: 9 });
assert.equal(decoded.length, 2);
for (const vector of decoded) {
  assert.ok(Array.isArray(vector));
  assert.equal(vector.length, 1536);
  const norm = vector.reduce((sum, x) => sum + x * x, 0);
  assert.ok(Math.abs(norm - 1) < 1e-5, `norm ${norm}`);
}
assert.notDeepEqual(decoded[0], decoded[1]);

// The 503 window: one failed attempt, then the SDK's retry succeeds.
assert.deepEqual(log.retried.attempts.map((a) => a.status), [503, 200]);
assert.equal(log.retried.result.data.length, 1);

// Float: the same vectors, each number the float32 the base64 carried.
const listed = log.float.result.data.map((d) => d.embedding);
assert.equal(log.float.attempts.length, 1);
for (let i = 0; i < 2; ++i) {
  assert.equal(listed[i].length, 1536);
  assert.deepEqual(listed[i].map((x) => Math.fround(x)), decoded[i]);
}

// dimensions: 8 components of length 1, the same direction as the full vector's first 8.
const short = log.short.result.data[0].embedding;
assert.equal(short.length, 8);
assert.ok(Math.abs(short.reduce((sum, x) => sum + x * x, 0) - 1) < 1e-5);
const head = decoded[0].slice(0, 8);
const headNorm = Math.sqrt(head.reduce((sum, x) => sum + x * x, 0));
short.forEach((x, i) => assert.ok(Math.abs(x - head[i] / headNorm) < 1e-5, `component ${i}`));

const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const embedder = report.providers.embedder;
assert.equal(embedder.calls, 5);
assert.equal(embedder.by_outcome.success, 4);
assert.equal(embedder.by_outcome.overloaded, 1);
assert.equal(report.injected_faults.embedder.overloaded, 1);
console.log('openai embeddings: ok');
