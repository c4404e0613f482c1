// End-to-end test of `squall serve` driven by the official OpenAI Node client (the
// version pinned in package.json, installed by scripts/setup.sh with `npm ci`).
//
//   node tests/live/client/openai_sdk_test.mjs SQUALL_BINARY
//
// Serves tests/live/scenarios/openai_sdk.json twice on the same seed and runs the same
// agent against each server. Each run checks what the SDK did against what the SDK
// documents (README "Retries": 2 retries by default, of 429s and >= 500s, honouring
// retry-after-ms / retry-after; 404s are not retried; an error event in a stream is thrown
// while iterating) and what squall's report says; the two runs must give the same fault
// decisions (count and fingerprint). Waits are asserted only from below (at least the
// Retry-After asked for), never from above: no dependence on the machine's speed.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { attemptLog, serve } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const scenario = join(here, '..', 'scenarios', 'openai_sdk.json');
const squall = process.argv[2];
assert.ok(squall, 'usage: openai_sdk_test.mjs SQUALL_BINARY');

// The agent: the same requests, one after another, logging every HTTP attempt the SDK made.
async function agent(baseURL) {
  const { fetch: loggingFetch, call, log } = attemptLog({ retryAfterMs: 'retry-after-ms', retryAfter: 'retry-after',
                                                          requestId: 'x-request-id', shouldRetry: 'x-should-retry' });
  const client = new OpenAI({ baseURL: `${baseURL}/v1`, apiKey: 'sk-squall-test', fetch: loggingFetch });
  const messages = [{ role: 'user', content: 'What does squall test?' }];
  await call('rate_limited_then_5xx', () => client.chat.completions.create({ model: 'gpt-4o-mini', messages }));
  await call('5xx_then_ok', async () => {
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    return { content: completion.choices[0].message.content, usage: completion.usage };
  });
  for (const name of ['cut_stream', 'clean_stream']) {
    const chunks = [];
    await call(name, async () => {
      try {
        const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true,
                                                               stream_options: { include_usage: true } });
        for await (const chunk of stream) chunks.push(chunk);
      } finally {
        log.chunks = chunks;  // read below, also when the stream threw
      }
      return { chunks: chunks.length };
    });
    log[name].chunks = chunks;
  }
  await call('unknown_model', () => client.chat.completions.create({ model: 'gpt-nope', messages }));
  await call('models', async () => (await client.models.list()).data.map((m) => m.id));
  // Each with a body of its own: the same body again after an error would be the agent's
  // own retry (docs/live.md, client conformance).
  for (const name of ['told_not_to_retry_5xx', 'told_to_retry_400', 'insufficient_quota']) {
    await call(name, () => client.chat.completions.create({ model: 'gpt-4o-mini',
                                                            messages: [{ role: 'user', content: name }] }));
  }
  return log;
}

async function run(label) {
  const dir = mkdtempSync(join(process.env.TMPDIR ?? tmpdir(), 'squall-live-'));
  const reportPath = join(dir, 'report.json');
  const server = serve(squall, scenario, reportPath);
  const log = await agent(await server.url);
  const stop = await fetch(`${await server.url}/squall/v1/stop`, { method: 'POST' });
  assert.equal(stop.status, 200, `${label}: POST /squall/v1/stop`);
  const code = await server.exited;
  assert.equal(code, 0, `${label}: squall serve's exit code (its threshold holds)`);
  const decisions = server.lines.find((line) => line.startsWith('fault decisions: '));
  assert.ok(decisions, `${label}: squall serve printed its fault decisions:\n${server.lines.join('\n')}`);
  return { log, decisions, report: JSON.parse(readFileSync(reportPath, 'utf8')) };
}

function checkSdkBehaviour({ log }) {
  // 429, 429, 500: two retries (the SDK's default), each after the Retry-After given.
  const first = log.rate_limited_then_5xx;
  assert.deepEqual(first.attempts.map((a) => a.status), [429, 429, 500]);
  assert.equal(first.error.name, 'InternalServerError');
  assert.equal(first.error.status, 500);
  assert.equal(first.attempts[0].retryAfterMs, '1000');
  assert.equal(first.attempts[0].retryAfter, '1');
  for (const i of [1, 2]) {
    const waited = first.attempts[i].sent - first.attempts[i - 1].sent;
    assert.ok(waited >= 1000, `retry ${i} was sent ${waited} ms after a 429 asking for 1000 ms`);
  }
  // 500, 500, 200: the third attempt succeeds.
  const second = log['5xx_then_ok'];
  assert.deepEqual(second.attempts.map((a) => a.status), [500, 500, 200]);
  assert.ok(second.result.content.length > 0);
  assert.equal(second.result.usage.total_tokens, second.result.usage.prompt_tokens + second.result.usage.completion_tokens);
  // A stream cut after 3 tokens: the role chunk and 3 content chunks, then the error the
  // SDK throws mid-stream; a 200 is not retried.
  const cut = log.cut_stream;
  assert.deepEqual(cut.attempts.map((a) => a.status), [200]);
  assert.equal(cut.error.name, 'APIError');
  assert.match(cut.error.message, /The server had an error while processing your request/);
  assert.equal(cut.chunks.length, 4);
  assert.equal(cut.chunks.filter((c) => c.choices[0]?.delta?.content).length, 3);
  // A clean stream: the usage chunk (no choices) last, after the finish_reason.
  const clean = log.clean_stream;
  assert.equal(clean.error, undefined);
  const last = clean.chunks.at(-1);
  assert.deepEqual(last.choices, []);
  assert.equal(last.usage.total_tokens, last.usage.prompt_tokens + last.usage.completion_tokens);
  assert.equal(clean.chunks.at(-2).choices[0].finish_reason, 'stop');
  assert.equal(clean.chunks.filter((c) => c.choices[0]?.delta?.content).length, last.usage.completion_tokens);
  // An unknown model: the API's 404, not retried.
  assert.deepEqual(log.unknown_model.attempts.map((a) => a.status), [404]);
  assert.equal(log.unknown_model.error.name, 'NotFoundError');
  assert.equal(log.unknown_model.error.code, 'model_not_found');
  assert.deepEqual(log.models.result, ['gpt-4o-mini']);
  // x-should-retry decides before the status (the SDK's shouldRetry): a 500 saying false is
  // not retried, a 400 saying true is, and so is nothing else.
  const toldNot = log.told_not_to_retry_5xx;
  assert.deepEqual(toldNot.attempts.map((a) => [a.status, a.shouldRetry]), [[500, 'false']]);
  assert.equal(toldNot.error.name, 'InternalServerError');
  const told = log.told_to_retry_400;
  assert.deepEqual(told.attempts.map((a) => [a.status, a.shouldRetry]), [[400, 'true'], [200, null]]);
  assert.equal(told.error, undefined);
  // OpenAI's quota error, as its body says it: type and code insufficient_quota.
  const quota = log.insufficient_quota;
  assert.deepEqual(quota.attempts.map((a) => a.status), [429]);
  assert.equal(quota.error.name, 'RateLimitError');
  assert.equal(quota.error.code, 'insufficient_quota');
  assert.equal(quota.error.body.type, 'insufficient_quota');
  assert.match(quota.error.message, /You exceeded your current quota/);
}

function checkReport({ report }) {
  const llm = report.providers.llm;
  assert.ok(llm, 'the report has the llm provider');
  // Every HTTP attempt that reached the provider: 3 + 3 + 1 + 1 + 1 + 2 + 1, by outcome as
  // the engine classifies them (the cut stream is a server_error, the spent quota
  // quota_exhausted, not rate_limited, though its status is 429).
  assert.equal(llm.calls, 12);
  assert.equal(llm.by_outcome.success, 3);
  assert.equal(llm.by_outcome.rate_limited, 2);
  assert.equal(llm.by_outcome.quota_exhausted, 1);
  assert.equal(llm.by_outcome.server_error, 5);
  assert.equal(llm.by_outcome.bad_request, 1);
  const injected = report.injected_faults.llm;
  assert.equal(injected.rate_limited, 3);
  assert.equal(injected.server_error, 4);
  assert.equal(injected.client_error, 1);
  assert.equal(injected.stream_cut, 1);
  // The SDK's retries, as the server saw them (x-stainless-retry-count): 2 + 2 + 1, none of
  // them against an answer's advice (the 400 said x-should-retry: true).
  const rows = Object.values(report.clients.by_client);
  assert.equal(rows.reduce((sum, row) => sum + row.retries.sdk, 0), 5, JSON.stringify(rows));
  assert.equal(rows.reduce((sum, row) => sum + row.retries_against_advice.total, 0), 0, JSON.stringify(rows));
  assert.equal(report.thresholds_passed, true);
}

const first = await run('first run');
checkSdkBehaviour(first);
checkReport(first);
const second = await run('second run');
checkSdkBehaviour(second);
assert.equal(second.decisions, first.decisions, 'the same client against the same seed meets the same fault decisions');
assert.match(first.decisions, /^fault decisions: 12, fingerprint [0-9a-f]{16}$/);
const { version } = JSON.parse(readFileSync(join(here, 'node_modules', 'openai', 'package.json'), 'utf8'));
console.log(`openai ${version}: SDK behaviour, report and determinism as expected (${first.decisions})`);
