#!/usr/bin/env node
// The result viewer (MCP Apps) in a real browser, fed by a running gateway.
//
//   node app-viewer-browser.mjs <url> <token> <outDir>
//
// This process is the host: the official TypeScript SDK 2.x client (pinned to 2026-07-28, so the
// extension arrives in each request's envelope) declares MCP Apps support with the extension SDK's
// own constants, lists the tools, reads the viewer with resources/read and calls the tools. Each
// result is shown the way a desktop host shows it: the viewer's HTML in a sandboxed iframe of a
// page in headless Chromium (lib/browser.mjs), talking to the extension's host bridge (AppBridge
// from @modelcontextprotocol/ext-apps) over postMessage; the bridge runs here and reaches the page
// through a relay, and forwards the view's tools/call to the gateway through the same client.
//
// Checks: a 3-column grouped result as a table and a bar chart (sort, sticky header, numeric
// alignment, chart switch and hide, a series hidden, CSV copy, a re-run with a larger maxRows through the host);
// NULL and a cut text cell; an error result; a time series (sl_query by month) as a line chart with its measures
// and dimensions named; sql_compare's verdict and both sides' timings side by side; the host's
// light and dark themes; no network request from the page. Screenshots go to <outDir>. Prints a
// JSON summary {ok, checks, problems}; exits 1 when a check fails.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import { EXTENSION_ID, RESOURCE_MIME_TYPE, getUiCapability } from '@modelcontextprotocol/ext-apps/server';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from './lib/browser.mjs';
import { fail } from './lib/summary.mjs';

const [url, token, outDir] = process.argv.slice(2);
if (!url || !outDir) fail('usage: app-viewer-browser.mjs <url> <token> <outDir>', 2);
mkdirSync(outDir, { recursive: true });

const APPS = { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } };
const checks = {};
const problems = [];
const expect = (cond, what) => { if (!cond) problems.push(what); return cond; };

async function connect(name, capabilities) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined
  });
  const c = new Client({ name, version: '1' }, { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await c.connect(transport);
  return c;
}

/** A host page: one sandboxed iframe (scripts only, an opaque origin) and a relay to this process. */
const HOST_PAGE = `<!DOCTYPE html><html><head><style>
  body { margin: 0; padding: 16px; background: #e9eaee; font-family: sans-serif; }
  body.dark { background: #0d0e10; }
  iframe { width: 760px; height: 200px; border: 1px solid #c5c7cc; border-radius: 8px; background: transparent; }
</style></head><body><iframe id="view" sandbox="allow-scripts"></iframe><script>
  const view = document.getElementById('view');
  window.addEventListener('message', (e) => { if (e.source === view.contentWindow) window.toHost(e.data); });
  window.toView = (m) => view.contentWindow.postMessage(m, '*');
</script></body></html>`;

/** The bridge's transport: messages cross between this process and the page's iframe. */
class PageRelay {
  constructor(page) { this.page = page; }
  async start() {}
  async send(message) { await this.page.evaluate((m) => window.toView(m), message); }
  async close() { this.onclose?.(); }
}

/** Opens the viewer for one tool call and feeds it the call's arguments and result. */
async function show(browser, client, html, tool, args, result, theme = 'light') {
  const page = await browser.newPage({ viewport: { width: 800, height: 700 } });
  const requests = [];
  page.on('request', (r) => { if (!r.url().startsWith('data:') && !r.url().startsWith('about:')) requests.push(r.url()); });
  const relay = new PageRelay(page);
  await page.exposeFunction('toHost', (m) => relay.onmessage?.(m));
  await page.setContent(HOST_PAGE);
  const bridge = new AppBridge(client, { name: 'sluice-test-host', version: '1' },
    { serverTools: {}, serverResources: {}, logging: {} },
    { hostContext: { theme, displayMode: 'inline', toolInfo: { tool }, containerDimensions: { width: 760, maxHeight: 1400 } } });
  const initialized = new Promise((resolve) => { bridge.oninitialized = resolve; });
  bridge.onsizechange = ({ height }) => {
    if (height) page.evaluate((h) => { document.getElementById('view').style.height = `${h}px`; }, height).catch(() => {});
  };
  await bridge.connect(relay);
  await page.evaluate((h) => { document.getElementById('view').srcdoc = h; }, html);
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result);
  const frame = await (await page.$('#view')).contentFrame();
  await frame.waitForSelector('#rows, #verdict, #error');
  return { page, frame, bridge, requests };
}

async function settle(page, frame) {
  // the iframe follows the view's size reports; give the last one time to land before a screenshot
  await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForTimeout(150);
}

const text = (r) => (r?.content ?? []).filter((b) => b.type === 'text').map((b) => b.text).join('\n');
const must = (r, what) => { if (r.isError || !r.structuredContent) throw new Error(`${what} failed: ${text(r).slice(0, 300)}`); };

const apps = await connect('sluice-apps-host', APPS);
const browser = await launchBrowser();
try {
  // discovery: the extension is negotiated, the three tools name the viewer, resources/read serves it
  const discover = apps.getDiscoverResult?.() ?? await apps.discover();
  checks.extension = { server: discover.capabilities?.extensions?.[EXTENSION_ID] ?? null,
    clientUi: getUiCapability(APPS) ?? null };
  expect(checks.extension.server?.mimeTypes?.includes(RESOURCE_MIME_TYPE), 'server/discover does not name the extension');
  const tools = (await apps.listTools()).tools;
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  checks.toolsWithViewer = tools.filter((t) => t._meta?.ui?.resourceUri).map((t) => t.name).sort();
  expect(JSON.stringify(checks.toolsWithViewer) === JSON.stringify(['sl_query', 'sql_compare', 'sql_execution']),
    `tools naming a viewer: ${checks.toolsWithViewer}`);
  const uri = byName.sql_execution?._meta?.ui?.resourceUri;
  const listed = (await apps.listResources()).resources;
  expect(listed.some((r) => r.uri === uri && r.mimeType === RESOURCE_MIME_TYPE), 'resources/list does not list the viewer');
  const read = await apps.readResource({ uri });
  const content = read.contents[0];
  const html = content.text;
  checks.resource = { uri, mimeType: content.mimeType, bytes: Buffer.byteLength(html, 'utf8') };
  expect(content.mimeType === RESOURCE_MIME_TYPE, `resources/read mimeType ${content.mimeType}`);
  expect(/^<!DOCTYPE html>/i.test(html), 'the viewer is not an HTML document');

  // 1. a 3-column grouped result: table + bar chart
  const groupedSql = 'SELECT c.country, count(*) AS orders, round(sum(o.total), 2) AS revenue FROM orders o '
    + 'JOIN customers c ON c.id = o.customer_id GROUP BY c.country ORDER BY revenue DESC';
  const groupedArgs = { connectionId: 'demo', sql: groupedSql, maxRows: 6 };
  const grouped = await apps.callTool({ name: 'sql_execution', arguments: groupedArgs });
  must(grouped, 'the grouped query');
  {
    const { page, frame, bridge, requests } = await show(browser, apps, html, byName.sql_execution, groupedArgs, grouped);
    const g = await frame.evaluate(() => {
      const th = [...document.querySelectorAll('#rows th')];
      const first = document.querySelector('#rows tbody tr');
      return {
        headers: th.map((h) => h.textContent),
        rows: document.querySelectorAll('#rows tbody tr').length,
        rowCount: document.getElementById('rowcount')?.textContent,
        truncated: Boolean(document.getElementById('truncated')),
        elapsed: document.getElementById('elapsed')?.textContent ?? null,
        sql: document.getElementById('sql')?.textContent,
        bars: document.querySelectorAll('#chart svg.chart-bar rect.bar').length,
        numericAlign: [...first.children].map((td) => getComputedStyle(td).textAlign),
        stickyHeader: getComputedStyle(th[0]).position,
        rerun: document.getElementById('rerun')?.textContent ?? null
      };
    });
    checks.grouped = g;
    expect(JSON.stringify(g.headers) === JSON.stringify(['country', 'orders', 'revenue']), `headers ${g.headers}`);
    expect(g.rows === 6 && g.rowCount === '6 rows', `rows ${g.rows} / ${g.rowCount}`);
    expect(g.truncated, 'the row cap is not shown');
    expect(g.elapsed && / ms$/.test(g.elapsed), 'no execution time');
    expect(g.sql === groupedSql, 'the SQL is not shown');
    expect(g.bars === 12, `bar chart: ${g.bars} bars for 6 rows x 2 measures`);
    expect(JSON.stringify(g.numericAlign) === JSON.stringify(['left', 'right', 'right']), `alignment ${g.numericAlign}`);
    expect(g.stickyHeader === 'sticky', `header position ${g.stickyHeader}`);
    await settle(page, frame);
    await page.screenshot({ path: join(outDir, 'viewer-grouped-light.png') });

    // sorting by a numeric column, ascending then descending
    await frame.click('#rows th:nth-child(3)');
    const asc = await frame.evaluate(() => [...document.querySelectorAll('#rows tbody tr td:nth-child(3)')].map((td) => Number(td.textContent)));
    await frame.click('#rows th:nth-child(3)');
    const desc = await frame.evaluate(() => [...document.querySelectorAll('#rows tbody tr td:nth-child(3)')].map((td) => Number(td.textContent)));
    checks.sort = { asc, desc };
    expect(asc.every((v, i) => i === 0 || asc[i - 1] <= v), `not ascending: ${asc}`);
    expect(desc.every((v, i) => i === 0 || desc[i - 1] >= v), `not descending: ${desc}`);

    // the chart can be switched and hidden
    await frame.click('button[data-chart=line]');
    const lines = await frame.evaluate(() => document.querySelectorAll('#chart svg.chart-line polyline.line').length);
    await frame.click('button[data-chart=hidden]');
    const hidden = await frame.evaluate(() => document.querySelectorAll('#chart svg').length);
    await frame.click('button[data-chart=bar]');
    // a series switched off in the legend (orders next to revenue 200 times larger)
    await frame.click('.legend button.series:nth-of-type(2)');
    const ordersOnly = await frame.evaluate(() => document.querySelectorAll('#chart rect.bar').length);
    await settle(page, frame);
    await page.screenshot({ path: join(outDir, 'viewer-grouped-orders-only.png') });
    await frame.click('.legend button.series:nth-of-type(2)');
    const both = await frame.evaluate(() => document.querySelectorAll('#chart rect.bar').length);
    checks.chartSwitch = { lines, svgWhenHidden: hidden, barsWithRevenueOff: ordersOnly, barsWithBoth: both };
    expect(lines === 2 && hidden === 0, `chart switch: ${lines} lines, ${hidden} charts when hidden`);
    expect(ordersOnly === 6 && both === 12, `series toggle: ${ordersOnly} bars with one series, ${both} with both`);

    // copy as CSV: what the button copies is the result, quoted as RFC 4180 asks
    await frame.click('#copy-csv');
    const csv = await frame.evaluate(() => window.sluiceViewer.csv());
    const copied = await frame.evaluate(() => document.getElementById('copy-csv').textContent);
    const csvLines = csv.trim().split('\r\n');
    checks.csv = { lines: csvLines.length, header: csvLines[0], button: copied };
    expect(csvLines.length === 7 && csvLines[0] === 'country,orders,revenue', `csv: ${csvLines[0]} (${csvLines.length} lines)`);
    expect(copied === 'Copied 6 rows', `copy button says ${copied}`);

    // the host's theme: dark after a host-context change
    const lightBg = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
    bridge.setHostContext({ theme: 'dark', displayMode: 'inline', toolInfo: { tool: byName.sql_execution } });
    await page.evaluate(() => document.body.classList.add('dark'));
    await frame.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    const darkBg = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const darkText = await frame.evaluate(() => getComputedStyle(document.body).color);
    checks.theme = { lightBg, darkBg, darkText };
    expect(lightBg === 'rgb(255, 255, 255)', `light background ${lightBg}`);
    expect(darkBg === 'rgb(23, 24, 27)', `dark background ${darkBg}`);
    await settle(page, frame);
    await page.screenshot({ path: join(outDir, 'viewer-grouped-dark.png') });

    // re-run with a larger maxRows: a tools/call from the view, through the bridge, to the gateway
    expect(Boolean(g.rerun), 'no re-run offered for a truncated result');
    await frame.click('#rerun');
    await frame.waitForFunction(() => !document.getElementById('truncated') && document.querySelectorAll('#rows tbody tr').length > 6);
    const after = await frame.evaluate(() => ({ rows: document.querySelectorAll('#rows tbody tr').length,
      rowCount: document.getElementById('rowcount').textContent }));
    const direct = await apps.callTool({ name: 'sql_execution', arguments: { ...groupedArgs, maxRows: 1000 } });
    must(direct, 'the same call made directly');
    checks.rerun = { button: g.rerun, ...after, direct: direct.structuredContent?.rowCount };
    expect(after.rows === direct.structuredContent?.rowCount, `re-run shows ${after.rows} rows, the gateway has ${direct.structuredContent?.rowCount}`);
    checks.groupedRequests = requests;
    expect(requests.length === 0, `the page made network requests: ${requests}`);
    await page.close();
  }

  // 2. NULL and a text cell the gateway cut
  {
    const nullArgs = { connectionId: 'demo', sql: "SELECT 1 AS id, NULL AS note, replace(hex(zeroblob(6000)), '00', 'ab') AS long_text "
      + "UNION ALL SELECT 2, 'kept', 'short'" };
    const r = await apps.callTool({ name: 'sql_execution', arguments: nullArgs });
    must(r, 'the NULL query');
    const { page, frame } = await show(browser, apps, html, byName.sql_execution, nullArgs, r);
    checks.nullAndCut = await frame.evaluate(() => ({
      nulls: [...document.querySelectorAll('#rows td.null')].map((td) => td.textContent),
      cut: document.querySelectorAll('#rows td .cut').length,
      chart: document.querySelectorAll('#chart svg').length
    }));
    expect(JSON.stringify(checks.nullAndCut.nulls) === '["NULL"]', `NULL cells: ${checks.nullAndCut.nulls}`);
    expect(checks.nullAndCut.cut === 1, `cut cells marked: ${checks.nullAndCut.cut}`);
    expect(checks.nullAndCut.chart === 0, 'a chart for two text columns');
    await page.close();
  }

  // an error result: its text, as the agent reads it
  {
    const badArgs = { connectionId: 'demo', sql: 'SELECT * FROM ordrs' };
    const r = await apps.callTool({ name: 'sql_execution', arguments: badArgs });
    expect(r.isError === true, 'a query of a missing table did not fail');
    const { page, frame } = await show(browser, apps, html, byName.sql_execution, badArgs, r);
    checks.error = await frame.evaluate(() => ({ title: document.getElementById('title').textContent,
      text: document.getElementById('error')?.textContent.split('\n')[0] }));
    expect(checks.error.title === 'The call failed' && checks.error.text?.startsWith('table_not_found'),
      `error shown as ${JSON.stringify(checks.error)}`);
    await page.close();
  }

  // 3. a time series from the semantic layer: a line chart, its measures and dimensions named
  {
    const tsArgs = { connectionId: 'demo', measures: ['orders.revenue'], dimensions: [{ dimension: 'orders.ordered_at', granularity: 'month' }],
      order_by: ['orders.ordered_at.month'], limit: 24 };
    const r = await apps.callTool({ name: 'sl_query', arguments: tsArgs });
    must(r, 'sl_query');
    const { page, frame, requests } = await show(browser, apps, html, byName.sl_query, tsArgs, r);
    checks.timeSeries = await frame.evaluate(() => ({
      rows: document.querySelectorAll('#rows tbody tr').length,
      lines: document.querySelectorAll('#chart svg.chart-line polyline.line').length,
      points: (document.querySelector('#chart polyline.line')?.getAttribute('points') ?? '').split(' ').filter(Boolean).length,
      bars: document.querySelectorAll('#chart rect.bar').length,
      measures: document.getElementById('measures')?.textContent,
      dimensions: document.getElementById('dimensions')?.textContent,
      sql: document.getElementById('sql')?.textContent.slice(0, 40)
    }));
    const t = checks.timeSeries;
    expect(t.rows === r.structuredContent.rowCount && t.rows > 1, `time series rows ${t.rows}`);
    expect(t.lines === 1 && t.points === t.rows && t.bars === 0, `line chart: ${t.lines} lines, ${t.points} points, ${t.bars} bars`);
    expect(t.measures?.includes('orders.revenue'), `measures: ${t.measures}`);
    expect(t.dimensions?.includes('orders.ordered_at.month'), `dimensions: ${t.dimensions}`);
    expect(t.sql?.startsWith('SELECT'), 'the compiled SQL is not shown');
    expect(requests.length === 0, `the page made network requests: ${requests}`);
    await settle(page, frame);
    await page.screenshot({ path: join(outDir, 'viewer-timeseries.png') });
    await page.close();
  }

  // 4. sql_compare: the verdict, and both sides' timings side by side
  {
    const cmpArgs = { connectionId: 'demo', baselineSql: 'SELECT status, count(*) AS n FROM orders GROUP BY status',
      candidateSql: 'SELECT status, count(*) AS n FROM orders WHERE total > 100 GROUP BY status' };
    const r = await apps.callTool({ name: 'sql_compare', arguments: cmpArgs });
    must(r, 'sql_compare');
    const { page, frame } = await show(browser, apps, html, byName.sql_compare, cmpArgs, r, 'dark');
    await page.evaluate(() => document.body.classList.add('dark'));
    checks.compare = await frame.evaluate(() => {
      const box = (id) => document.getElementById(id).getBoundingClientRect();
      return { verdict: document.getElementById('verdict').textContent, cls: document.getElementById('class')?.textContent,
        baselineMs: document.querySelector('#baseline .big').textContent, candidateMs: document.querySelector('#candidate .big').textContent,
        sideBySide: box('baseline').top === box('candidate').top && box('baseline').left < box('candidate').left,
        differenceTables: document.querySelectorAll('#rows').length };
    });
    const c = checks.compare;
    expect(c.verdict === 'Different rows', `verdict ${c.verdict}`);
    expect(c.cls === r.structuredContent.class, `class ${c.cls} vs ${r.structuredContent.class}`);
    expect(c.sideBySide, 'baseline and candidate are not side by side');
    expect(c.baselineMs.endsWith(' ms') && c.candidateMs.endsWith(' ms'), `timings ${c.baselineMs} / ${c.candidateMs}`);
    expect(c.differenceTables === 2, `difference tables: ${c.differenceTables}`);
    await settle(page, frame);
    await page.screenshot({ path: join(outDir, 'viewer-compare-dark.png') });
    await page.close();
  }
} catch (e) {
  problems.push(`stopped: ${e.stack ?? e}`);
} finally {
  await browser.close();
  await apps.close();
}

console.log(JSON.stringify({ ok: problems.length === 0, checks, problems }, null, 2));
process.exit(problems.length === 0 ? 0 : 1);
