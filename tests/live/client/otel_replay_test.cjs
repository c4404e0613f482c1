// Replay of a trace written by the official OpenTelemetry instrumentation, not by squall:
// the `openai` Node client instrumented by @opentelemetry/instrumentation-openai (its
// `chat MODEL` spans) and @opentelemetry/instrumentation-http (one client span per HTTP
// request, the SDK's own retries included, with the retry-after headers recorded as the
// instrumentation's headersToSpanAttributes option records them), exported by
// @opentelemetry/exporter-trace-otlp-http as OTLP/JSON to a receiver in this test, which
// writes each request it gets as one line: the OpenTelemetry Collector file exporter's form.
//
//   node tests/live/client/otel_replay_test.cjs SQUALL_BINARY
//
// The agent calls `squall serve` (tests/live/scenarios/otel_replay.json: 429s with
// retry-after-ms, 500s), then `squall replay` reads the trace. What replay read must be what
// the server counted: every HTTP request an attempt, each `create()` one logical call, each
// agent run one task, the outcomes by kind; and the policy it infers must be the client's
// (at most 3 attempts: the SDK's default maxRetries of 2; Retry-After honoured). CommonJS,
// because the instrumentations patch modules as `require` loads them.
'use strict';
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { trace } = require('@opentelemetry/api');
const { receiver, instrument, serve, writeCollectorFile } = require('./otel_harness.cjs');

const squall = process.argv[2];
assert.ok(squall, 'usage: otel_replay_test.cjs SQUALL_BINARY');
const scenario = path.join(__dirname, '..', 'scenarios', 'otel_replay.json');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'squall-otel-'));
const kTasks = 30;

// Each task: one agent run in a span of the application's own, two questions; a failed
// call (the SDK's retries spent) ends the task. Every third task streams its second answer.
async function agent(client) {
  const tracer = trace.getTracer('agent');
  const outcome = { calls: 0, failed: 0 };
  for (let t = 0; t < kTasks; t++) {
    await tracer.startActiveSpan('handle_question', async (span) => {
      for (let q = 0; q < 2; q++) {
        const messages = [{ role: 'user', content: `question ${t}.${q}` }];
        ++outcome.calls;
        try {
          if (q === 1 && t % 3 === 0) {
            const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', max_tokens: 20, messages,
                                                                  stream: true, stream_options: { include_usage: true } });
            for await (const chunk of stream) void chunk;
          } else {
            await client.chat.completions.create({ model: 'gpt-4o-mini', max_tokens: 20, messages });
          }
        } catch (error) {
          assert.ok(error.status === 429 || error.status === 500, `unexpected error: ${error.message}`);
          ++outcome.failed;
          break;
        }
      }
      span.end();
    });
  }
  return outcome;
}

function run(args) {
  const r = spawnSync(squall, args, { encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

async function main() {
  const { server, bodies, port } = await receiver();
  const provider = instrument(port);
  const OpenAI = require('openai');  // after the instrumentations, which patch it as it loads
  const served = await serve(squall, scenario, path.join(dir, 'served.json'));
  const outcome = await agent(new OpenAI({ baseURL: `${served.url}/v1`, apiKey: 'sk-squall-test' }));
  await provider.forceFlush();
  await provider.shutdown();
  server.close();
  await fetch(`${served.url}/squall/v1/stop`, { method: 'POST' });
  assert.equal(await served.exited, 0);
  const traceFile = path.join(dir, 'trace.jsonl');
  writeCollectorFile(traceFile, bodies);

  const llm = JSON.parse(fs.readFileSync(path.join(dir, 'served.json'), 'utf8')).providers.llm;
  const byOutcome = llm.by_outcome;
  assert.ok(byOutcome.rate_limited > 0 && byOutcome.rate_limited < llm.calls, JSON.stringify(byOutcome));

  const out = path.join(dir, 'replayed');
  const replay = run(['replay', traceFile, '--out-dir', out]);
  console.log(replay.out);
  assert.ok(replay.status === 0 || replay.status === 1, `squall replay exited ${replay.status}`);
  // Every HTTP request is an attempt; every create() a logical call; every agent run a task.
  assert.match(replay.out, new RegExp(`^read: ${llm.calls} attempts, 0 agent spans, ${llm.calls} HTTP requests under them`, 'm'));
  assert.match(replay.out, new RegExp(`^grouped: ${kTasks} tasks \\(0 without attempts\\), ${outcome.calls} logical calls ` +
                                      `\\(0 with a fallback, 0 hedged\\), ${llm.calls} attempts \\(${llm.calls - outcome.calls} ` +
                                      'in a span with others, 0 joined by timing, 0 resends without a first attempt\\)', 'm'));
  // The outcomes replay read are the ones the server gave, window by window summed.
  const calibration = JSON.parse(fs.readFileSync(path.join(out, 'calibration.json'), 'utf8')).calibration;
  const observed = {};
  for (const w of calibration.windows) {
    for (const f of w.figures) {
      const m = /^attempts\{provider:openai,outcome:(\w+)\}$/.exec(f.figure);
      if (m) observed[m[1]] = (observed[m[1]] ?? 0) + f.observed;
    }
  }
  assert.equal(observed.rate_limited, byOutcome.rate_limited);
  assert.equal(observed.server_error ?? 0, byOutcome.server_error);
  assert.equal((observed.success ?? 0) + (observed.truncated ?? 0), byOutcome.success);
  assert.ok(observed.truncated > 0, 'some answers were cut at max_tokens 20');
  // The fitted world and the policy the client ran.
  const fitted = fs.readFileSync(path.join(out, 'scenario.yaml'), 'utf8');
  assert.match(fitted, /- kind: rate_limited\n\s+probability: [0-9.]+ .*\n(\s+.*\n)*?\s+retry_after: 50ms/);
  const policy = fs.readFileSync(path.join(out, 'as-deployed.yaml'), 'utf8');
  const attempts = Number(/max_attempts: (\d+)/.exec(policy)[1]);
  assert.ok(attempts >= 2 && attempts <= 3, `the SDK makes at most 3 attempts, replay says ${attempts}`);
  assert.match(policy, /retry_on: \[rate_limited(, server_error)?\]/);
  assert.match(policy, /honour_retry_after: true/);
  assert.equal(run(['validate', path.join(out, 'scenario.yaml')]).status, 0);
  console.log(`otel replay: ${llm.calls} requests in ${outcome.calls} calls of ${kTasks} tasks ` +
              `(${outcome.failed} failed) read back as the server counted them; calibration ` +
              `${calibration.passed ? 'passed' : 'failed'}`);
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
