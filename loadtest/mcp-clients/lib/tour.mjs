// The tool tour shared by sdk-client-tour.mjs (TypeScript SDK 1.x, 2025-era sessions) and
// sdk2-client-tour.mjs (SDK 2.x pinned to 2026-07-28): every tool, its success path and its errors,
// judged by what the agent reads. The caller supplies how a client for one principal is made.
import { readFileSync } from 'node:fs';
import { fail } from './summary.mjs';

/** How long a step with retryWhile / retryWhileText / until keeps asking, every 100 ms. */
const RETRY_BUDGET_MS = 90_000;

/**
 * @param connect (transport, session, token, onStderr) => Promise<Client>, a connected client
 *   of the SDK under test, with tourCall(params, options) calling a tool the way that SDK does
 */
export async function runTour(tourFile, connect) {
  const tour = JSON.parse(readFileSync(tourFile, 'utf8'));
  const vars = {};
  const clients = {};
  let stderrTail = '';

  async function client(session = 'main') {
    if (clients[session]) return clients[session];
    const t = tour.transport;
    if (t.kind === 'stdio' && session !== 'main') throw new Error('stdio has one session');
    const c = await connect(t, session, t.sessions?.[session], (d) => { stderrTail = (stderrTail + d.toString()).slice(-4000); });
    // listTools caches every outputSchema: from here on callTool validates structuredContent
    c.toolNames = (await c.listTools()).tools.map((x) => x.name);
    clients[session] = c;
    return c;
  }

  function substitute(value) {
    if (typeof value === 'string') {
      return value.replace(/\$\{([^}]+)\}/g, (_, name) => {
        if (!(name in vars)) throw new Error(`\${${name}} was never saved`);
        return vars[name];
      });
    }
    if (Array.isArray(value)) return value.map(substitute);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v)]));
    }
    return value;
  }

  function textOf(result) {
    return (result?.content ?? []).filter((b) => b.type === 'text').map((b) => b.text).join('\n');
  }

  /** What an agent gets from one call: the result, or the exception the client threw instead. */
  async function invoke(step, onprogress) {
    const c = await client(step.session);
    try {
      const result = await c.tourCall({ name: step.tool, arguments: substitute(step.args ?? {}) },
        { timeout: 120_000, ...(onprogress ? { onprogress } : {}) });
      return { result };
    } catch (e) {
      return { threw: `${e.name}: ${e.message}` };
    }
  }

  function judge(step, outcome) {
    const problems = [];
    const { result, threw } = outcome;
    const text = textOf(result);
    const errorType = result?.isError ? (text.match(/^([a-z_]+): /)?.[1] ?? null) : null;
    if (threw) {
      problems.push(`the client threw instead of returning the result: ${threw}`);
    } else if (step.expect === 'ok') {
      if (result.isError) problems.push(`expected success, got ${text.slice(0, 300)}`);
      if (!result.structuredContent) problems.push('success without structuredContent');
    } else {
      if (!result.isError) problems.push(`expected ${step.expect}, got a success: ${text.slice(0, 200)}`);
      else if (errorType !== step.expect) problems.push(`expected ${step.expect}, got ${errorType}: ${text.slice(0, 300)}`);
      if (result?.structuredContent) problems.push('an error result carries structuredContent');
      // after the headline, the whole body: what to do next comes with every error
      if (result?.isError && !text.includes('"hint":"')) problems.push('the error text has no hint');
    }
    for (const phrase of step.text ?? []) {
      if (!text.includes(substitute(phrase))) problems.push(`text lacks "${phrase}": ${text.slice(0, 300)}`);
    }
    return {
      label: step.label ?? step.tool, tool: step.tool, session: step.session ?? 'main', expect: step.expect,
      got: threw ? 'exception' : result.isError ? errorType : 'ok', ok: problems.length === 0, problems,
      text: text.slice(0, 400)
    };
  }

  async function run(step) {
    const retry = step.retryWhile || step.retryWhileText || step.until;
    // a time budget, not a count: how long a count of quick retries lasts depends on the machine
    const deadline = Date.now() + RETRY_BUDGET_MS;
    for (;;) {
      const outcome = await invoke(step);
      const r = outcome.result;
      const again = retry && Date.now() < deadline && !outcome.threw && (
        (step.retryWhile && r.isError && textOf(r).startsWith(`${step.retryWhile}: `))
        || (step.retryWhileText && textOf(r).includes(step.retryWhileText))
        || (step.until && !r.isError && !step.until.in.includes(r.structuredContent?.[step.until.field])));
      if (!again) {
        if (!outcome.threw && !r.isError) {
          for (const [name, field] of Object.entries(step.save ?? {})) vars[name] = r.structuredContent?.[field];
        }
        return judge(step, outcome);
      }
      await new Promise((res) => setTimeout(res, 100));
    }
  }

  const background = {};
  const results = [];
  const timer = setTimeout(() => {
    if (stderrTail) console.error(`--- server stderr (tail) ---\n${stderrTail}`);
    fail(new Error(`tour timed out after 300 s; done so far: ${JSON.stringify(results)}`));
  }, 300_000);
  try {
    for (const step of tour.calls) {
      if (step.await) {
        results.push(judge({ ...background[step.await].step, ...step }, await background[step.await].done));
      } else if (step.background) {
        const name = step.background;
        const started = invoke(step, (p) => {
          const id = p.message?.match(/queryId ([0-9a-f-]{36})/)?.[1];
          if (id) vars[`${name}.queryId`] = id;
        });
        background[name] = { step, done: started };
        for (let i = 0; i < 300 && !vars[`${name}.queryId`]; i++) await new Promise((res) => setTimeout(res, 100));
        if (!vars[`${name}.queryId`]) throw new Error(`${name}: no progress named its queryId within 30 s`);
      } else {
        results.push(await run(step));
      }
    }
    const main = await client('main');
    const summary = { ok: results.every((r) => r.ok), transport: tour.transport.kind, tools: main.toolNames, calls: results };
    console.log(JSON.stringify(summary, null, 2));
    clearTimeout(timer);
    await Promise.all(Object.values(clients).map((c) => c.close()));
    if (!summary.ok && stderrTail) console.error(`--- server stderr (tail) ---\n${stderrTail}`);
    process.exit(summary.ok ? 0 : 1);
  } catch (e) {
    await Promise.all(Object.values(clients).map((c) => c.close().catch(() => {})));
    if (stderrTail) console.error(`--- server stderr (tail) ---\n${stderrTail}`);
    fail(e);
  }
}
