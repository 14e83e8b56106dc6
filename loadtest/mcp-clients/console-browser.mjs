#!/usr/bin/env node
// Drives the operator's console (/console) in headless Chromium while an agent works through the
// official TypeScript SDK: the page must show the agent's session and its running query, a
// keyboard press on the row's Cancel button must stop the call, and the agent must be told in
// band. Then the same for a 2026-07-28 stateless request (no session), whose row is marked as such.
// Screenshots of each step go to <outDir>. The caller watches the engine and creates
// <outDir>/<marker>.running once the statement runs there; the script cancels only after that.
//
//   node console-browser.mjs <gatewayBase> <agentToken> <operatorToken> <connectionId> <sql> <marker> <outDir>
//       [<statelessSql> <statelessMarker>]
//
// Prints one JSON object: {sessionSeen, callSeen, callGone, cancelMs, agentResult, statelessSeen,
// statelessResult, statelessElapsedMs, a11y, screenshots}.
// Exits 1 when a step fails (the message says which).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from './lib/browser.mjs';
import { fail } from './lib/summary.mjs';

const [base, agentToken, operatorToken, connectionId, sql, marker, outDir, statelessSql, statelessMarker] =
  process.argv.slice(2);
if (!outDir) {
  fail('usage: console-browser.mjs <gatewayBase> <agentToken> <operatorToken> <connectionId> <sql> <marker> <outDir>', 2);
}
mkdirSync(outDir, { recursive: true });
const CLIENT = 'console-test-agent';
const STEP_MS = 15_000;
const summary = { screenshots: [] };

/** Waits for the harness's word that <m>'s statement runs at the engine. */
async function engineRunning(m) {
  const flag = join(outDir, m + '.running');
  for (const until = Date.now() + STEP_MS; !existsSync(flag);) {
    if (Date.now() > until) throw new Error('the harness never saw the statement running at the engine');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A 2026-07-28 tools/call stands alone (its revision and client in its own _meta, no session): the
 * page lists it marked stateless, and its Cancel answers the request in band.
 */
async function statelessCall(page, shot) {
  const t0 = Date.now();
  const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {
    name: 'sql_execution', arguments: { connectionId, sql: statelessSql }, _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'console-stateless-agent', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {} } } };
  const answer = fetch(base + '/mcp', { method: 'POST', body: JSON.stringify(request), headers: {
    Authorization: `Bearer ${agentToken}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'sql_execution' } })
    .then(async (r) => {
      const text = await r.text();
      // the request's own SSE stream ends with the response (or the answer is plain JSON)
      const data = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim());
      return { m: JSON.parse(data.length ? data[data.length - 1] : text), ms: Date.now() - t0 };
    }, (e) => ({ e: String(e), ms: Date.now() - t0 }));
  const row = page.locator('#calls tbody tr', { hasText: statelessMarker });
  await row.waitFor({ timeout: STEP_MS });
  await engineRunning(statelessMarker);
  summary.statelessSeen = (await row.innerText()).replace(/\s+/g, ' ').trim();
  await shot('3-stateless-call');
  const cancel = row.getByRole('button', { name: /^Cancel sql_execution call/ });
  await cancel.focus();
  await page.keyboard.press('Enter');
  await row.waitFor({ state: 'detached', timeout: STEP_MS });
  const outcome = await answer;
  summary.statelessElapsedMs = outcome.ms;
  if (outcome.e) throw new Error(`the stateless call failed instead of answering in band: ${outcome.e}`);
  summary.statelessResult = outcome.m;
}

const transport = new StreamableHTTPClientTransport(new URL(base + '/mcp'), {
  requestInit: { headers: { Authorization: `Bearer ${agentToken}` } }
});
const agent = new Client({ name: CLIENT, version: '7.1.2' });
const browser = await launchBrowser();
try {
  await agent.connect(transport);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const shot = async (name) => {
    const path = join(outDir, name + '.png');
    await page.screenshot({ path, fullPage: true });
    summary.screenshots.push(path);
  };
  await page.goto(base + '/console');
  // the operator types the token into the labelled field and submits with the keyboard
  await page.getByLabel('Operator token').fill(operatorToken);
  await page.getByLabel('Operator token').press('Enter');
  await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor({ timeout: STEP_MS });

  const sessionRow = page.locator('#sessions tbody tr', { hasText: CLIENT });
  await sessionRow.waitFor({ timeout: STEP_MS });
  summary.sessionSeen = (await sessionRow.innerText()).replace(/\s+/g, ' ').trim();

  const t0 = Date.now();
  const call = agent.callTool({ name: 'sql_execution', arguments: { connectionId, sql } }, CallToolResultSchema,
    { timeout: 120_000 }).then((r) => ({ r, ms: Date.now() - t0 }), (e) => ({ e: String(e), ms: Date.now() - t0 }));
  const callRow = page.locator('#calls tbody tr', { hasText: marker });
  await callRow.waitFor({ timeout: STEP_MS });
  summary.callSeen = (await callRow.innerText()).replace(/\s+/g, ' ').trim();
  // the test harness drops <marker>.running in outDir once pg_stat_activity shows the statement:
  // the cancel then has to stop it at the engine, not before it got there
  await engineRunning(marker);
  await page.waitForTimeout(1500); // one more live push: the row shows the query's progress
  summary.callSeen = (await callRow.innerText()).replace(/\s+/g, ' ').trim();
  await shot('1-running-query');

  // keyboard only: focus the row's Cancel button and press Enter
  const cancel = callRow.getByRole('button', { name: /^Cancel sql_execution call/ });
  await cancel.focus();
  await page.keyboard.press('Enter');
  const cancelledAt = Date.now();
  await callRow.waitFor({ state: 'detached', timeout: STEP_MS });
  summary.callGone = true;
  const outcome = await call;
  summary.cancelMs = Date.now() - cancelledAt;
  summary.agentElapsedMs = outcome.ms;
  if (outcome.e) throw new Error(`the agent's call failed instead of answering in band: ${outcome.e}`);
  summary.agentResult = outcome.r;
  await page.getByRole('status').filter({ hasText: 'Cancelled' }).waitFor({ timeout: STEP_MS });
  await page.locator('#h-history').scrollIntoViewIfNeeded();
  // the history is read from the audit files, which the writer fills in batches (audit.flush_ms):
  // the record may land after the first look, so look again as an operator would
  const cancelledRow = page.locator('#history tbody tr', { hasText: 'cancelled' }).first();
  for (const deadline = Date.now() + STEP_MS; ;) {
    await page.getByRole('button', { name: 'Apply' }).click();
    try {
      await cancelledRow.waitFor({ timeout: 1_000 });
      break;
    } catch (e) {
      if (Date.now() > deadline) throw e;
    }
  }
  // the charts come over the same stream every 5 s: wait for one that counts the cancelled call
  await page.waitForFunction(() => Number(document.querySelector('#chart-calls').dataset.total || 0) >= 1, null,
    { timeout: STEP_MS });
  summary.charts = await page.locator('#chart-calls title').textContent();
  summary.chartedCalls = Number(await page.locator('#chart-calls').getAttribute('data-total'));
  await shot('2-after-cancel');

  if (statelessSql) {
    await statelessCall(page, shot);
  }

  // basic accessibility: every form control has a label, every button an accessible name
  summary.a11y = await page.evaluate(() => {
    const unlabelled = [...document.querySelectorAll('input, select')]
      .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')).map((el) => el.id || el.name);
    const unnamed = [...document.querySelectorAll('button')].filter((b) => !(b.getAttribute('aria-label')
      || b.textContent.trim())).length;
    return { unlabelled, unnamedButtons: unnamed };
  });
  console.log(JSON.stringify(summary, null, 2));
  await transport.terminateSession().catch(() => {});
  await agent.close();
} catch (e) {
  summary.failed = String(e && e.stack ? e.stack : e);
  console.log(JSON.stringify(summary, null, 2));
  process.exitCode = 1;
} finally {
  await browser.close();
}
process.exit(process.exitCode ?? 0);
