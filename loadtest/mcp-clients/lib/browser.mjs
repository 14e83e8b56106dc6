// Headless Chromium for the browser tests: the Debian package (/usr/bin/chromium, installed by
// .ci/run) driven by playwright-core, which downloads no browser of its own.
import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.SLUICE_CHROMIUM || '/usr/bin/chromium';

/** Launches headless Chromium; fails with a clear message when the package is missing. */
export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install the Debian package (apt-get install chromium) `
      + 'or point SLUICE_CHROMIUM at a Chromium binary');
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
}
