// End-to-end test of `squall serve`'s Messages API driven by the official Anthropic Node
// client (the version pinned in package.json, installed by scripts/setup.sh with `npm ci`).
//
//   node tests/live/client/anthropic_sdk_test.mjs SQUALL_BINARY
//
// Serves tests/live/scenarios/anthropic_sdk.json at --time-scale 2 and checks what the SDK
// did against what it documents (README "Retries": 2 retries by default, of 429s and
// >= 500s including 529, honouring retry-after; 404s are not retried; an `error` event in
// a stream is thrown while iterating) and what squall's report says. Waits are asserted
// only from below (at least the scaled Retry-After), never from above.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { attemptLog, serve } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const scenario = join(here, '..', 'scenarios', 'anthropic_sdk.json');
const squall = process.argv[2];
assert.ok(squall, 'usage: anthropic_sdk_test.mjs SQUALL_BINARY');

// The agent: the same requests, one after another, logging every HTTP attempt the SDK made.
async function agent(baseURL) {
  const { fetch: loggingFetch, call, log } = attemptLog({ retryAfter: 'retry-after', requestId: 'request-id',
                                                          shouldRetry: 'x-should-retry' });
  const client = new Anthropic({ baseURL, apiKey: 'sk-ant-squall-test', fetch: loggingFetch });
  const request = { model: 'claude-sonnet-4-5', max_tokens: 1000,
                    messages: [{ role: 'user', content: 'What does squall test?' }] };
  await call('overloaded', () => client.messages.create(request));
  await call('rate_limited_then_ok', () => client.messages.create(request));
  for (const name of ['cut_stream', 'clean_stream']) {
    const events = [];
    await call(name, async () => {
      const stream = await client.messages.create({ ...request, stream: true });
      for await (const event of stream) events.push(event);
      return { events: events.length };
    });
    log[name].events = events;
  }
  await call('unknown_model', () => client.messages.create({ ...request, model: 'claude-nope' }));
  await call('told_not_to_retry', () => client.messages.create(request));
  return log;
}

function checkSdkBehaviour(log) {
  // 529 three times: two retries (the SDK's default), then the overloaded error surfaces.
  const overloaded = log.overloaded;
  assert.deepEqual(overloaded.attempts.map((a) => a.status), [529, 529, 529]);
  assert.equal(overloaded.error.name, 'InternalServerError');
  assert.equal(overloaded.error.status, 529);
  assert.deepEqual(overloaded.error.body,
                   { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' },
                     request_id: overloaded.attempts[2].requestId });
  // 429 asking for 2 s of scenario time, sent as retry-after: 1 at --time-scale 2; the
  // retry comes at least a second later and succeeds.
  const limited = log.rate_limited_then_ok;
  assert.deepEqual(limited.attempts.map((a) => a.status), [429, 200]);
  assert.equal(limited.attempts[0].retryAfter, '1');
  const waited = limited.attempts[1].sent - limited.attempts[0].sent;
  assert.ok(waited >= 1000, `the retry was sent ${waited} ms after a 429 asking for 1000 ms`);
  const message = limited.result;
  assert.equal(message.type, 'message');
  assert.equal(message.stop_reason, 'end_turn');
  assert.equal(message.content[0].text.length, 4 * message.usage.output_tokens);
  assert.equal(message.usage.input_tokens, 6);  // "What does squall test?": 22 bytes
  // A stream cut after 3 tokens: its opening events and 3 text deltas arrive, then the
  // SDK throws the error event's data mid-stream; a 200 is not retried.
  const cut = log.cut_stream;
  assert.deepEqual(cut.attempts.map((a) => a.status), [200]);
  assert.deepEqual(cut.events.map((e) => e.type),
                   ['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta',
                    'content_block_delta']);
  assert.equal(cut.events.slice(2).map((e) => e.delta.text).join(''), 'The mock is ');
  assert.equal(cut.error.name, 'APIConnectionError');  // APIError.generate without a status
  assert.deepEqual(JSON.parse(cut.error.message),
                   { type: 'error', error: { type: 'api_error', message: 'Internal server error' },
                     request_id: cut.attempts[0].requestId });
  // A clean stream: the documented sequence (the SDK drops pings), usage in message_delta.
  const clean = log.clean_stream;
  assert.equal(clean.error, undefined);
  const types = clean.events.map((e) => e.type);
  const deltas = types.filter((t) => t === 'content_block_delta').length;
  assert.deepEqual(types, ['message_start', 'content_block_start', ...Array(deltas).fill('content_block_delta'),
                           'content_block_stop', 'message_delta', 'message_stop']);
  assert.equal(clean.events.at(-2).usage.output_tokens, deltas);
  assert.equal(clean.events.at(-2).delta.stop_reason, 'end_turn');
  // An unknown model: the API's 404, not retried.
  assert.deepEqual(log.unknown_model.attempts.map((a) => a.status), [404]);
  assert.equal(log.unknown_model.error.name, 'NotFoundError');
  assert.deepEqual(log.unknown_model.error.body,
                   { type: 'error', error: { type: 'not_found_error', message: 'model: claude-nope' } });
  // A 529 saying x-should-retry: false is not retried (the SDK reads the header before the
  // status); its error object carries the fault's own message.
  const toldNot = log.told_not_to_retry;
  assert.deepEqual(toldNot.attempts.map((a) => [a.status, a.shouldRetry]), [[529, 'false']]);
  assert.deepEqual(toldNot.error.body.error, { type: 'overloaded_error', message: 'Overloaded: the region is draining' });
}

function checkReport(report) {
  const claude = report.providers.claude;
  // Every HTTP attempt that reached the provider: 3 + 2 + 1 + 1 + 1 (the 404 reaches none).
  assert.equal(claude.calls, 8);
  assert.equal(claude.by_outcome.success, 2);
  assert.equal(claude.by_outcome.overloaded, 4);
  assert.equal(claude.by_outcome.rate_limited, 1);
  assert.equal(claude.by_outcome.server_error, 1);
  const injected = report.injected_faults.claude;
  assert.equal(injected.overloaded, 4);
  assert.equal(injected.rate_limited, 1);
  assert.equal(injected.stream_cut, 1);
  assert.equal(report.thresholds_passed, true);
}

const dir = mkdtempSync(join(process.env.TMPDIR ?? tmpdir(), 'squall-live-'));
const reportPath = join(dir, 'report.json');
const server = serve(squall, scenario, reportPath, ['--time-scale', '2']);
const log = await agent(await server.url);
const stop = await fetch(`${await server.url}/squall/v1/stop`, { method: 'POST' });
assert.equal(stop.status, 200, 'POST /squall/v1/stop');
assert.equal(await server.exited, 0, "squall serve's exit code (its threshold holds)");
checkSdkBehaviour(log);
checkReport(JSON.parse(readFileSync(reportPath, 'utf8')));
assert.ok(server.lines.some((line) => /^fault decisions: 8, fingerprint [0-9a-f]{16}$/.test(line)), server.lines.join('\n'));
const { version } = JSON.parse(readFileSync(join(here, 'node_modules', '@anthropic-ai', 'sdk', 'package.json'), 'utf8'));
console.log(`@anthropic-ai/sdk ${version}: SDK behaviour and report as expected`);
