// Records a trace as a team's own agent would leave it: the official `openai` client (its
// defaults: 2 retries, honouring Retry-After) under the official OpenTelemetry
// instrumentation (otel_harness.cjs), calling `squall serve SCENARIO` in real time. Tasks
// arrive open-loop, one every 1/RATE s for SECONDS; each asks two questions in a span of the
// application's own and stops at a failed call. The trace goes to OUT in the collector file
// form; squall serve's report to OUT.served.json.
//
//   node tests/live/client/record_otel_trace.cjs SQUALL SCENARIO OUT [SECONDS] [RATE]
//
// scenarios/replay/trace.jsonl was made so (scenarios/replay/README.md).
'use strict';
const { trace } = require('@opentelemetry/api');
const { receiver, instrument, serve, writeCollectorFile } = require('./otel_harness.cjs');

const [squall, scenario, out, seconds = '60', rate = '2'] = process.argv.slice(2);
if (!out) {
  console.error('usage: record_otel_trace.cjs SQUALL SCENARIO OUT [SECONDS] [RATE]');
  process.exit(2);
}

async function task(client, tracer, t) {
  await tracer.startActiveSpan('handle_question', async (span) => {
    for (let q = 0; q < 2; q++) {
      try {
        await client.chat.completions.create({ model: 'gpt-4o-mini', max_tokens: 64,
                                               messages: [{ role: 'user', content: `question ${t}.${q}` }] });
      } catch (error) {
        break;
      }
    }
    span.end();
  });
}

async function main() {
  const { server, bodies, port } = await receiver();
  const provider = instrument(port);
  const OpenAI = require('openai');  // after the instrumentations, which patch it as it loads
  const served = await serve(squall, scenario, `${out}.served.json`);
  const client = new OpenAI({ baseURL: `${served.url}/v1`, apiKey: 'sk-squall-example' });
  const tracer = trace.getTracer('agent');
  const tasks = [];
  const count = Math.round(Number(seconds) * Number(rate));
  for (let t = 0; t < count; t++) {
    tasks.push(task(client, tracer, t));
    await new Promise((resolve) => setTimeout(resolve, 1000 / Number(rate)));
  }
  await Promise.all(tasks);
  await provider.forceFlush();
  await provider.shutdown();
  server.close();
  await fetch(`${served.url}/squall/v1/stop`, { method: 'POST' });
  await served.exited;
  writeCollectorFile(out, bodies);
  console.log(`${count} tasks recorded to ${out}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
