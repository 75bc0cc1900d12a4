// Browser tests against the real server binary (built by
// scripts/web-test.sh) on a free port, with Debian's Chromium. The server
// keeps games in its default store, or in DATABASE_URL when that is set.

import { defineConfig } from '@playwright/test';
import { execSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');

function freePort() {
  if (process.env.CATAN_TEST_PORT) return Number(process.env.CATAN_TEST_PORT);
  // Ask the OS for a free port in a child process (the config must be synchronous).
  const out = execSync(`node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"`);
  const port = Number(String(out).trim());
  process.env.CATAN_TEST_PORT = String(port);
  return port;
}

const port = freePort();
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results/output',
  timeout: 180_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  // One retry: a full game through a real browser on a loaded 2-core CI
  // machine has timed out once in development; a retry keeps CI honest
  // without letting a real failure through twice.
  retries: 1,
  reporter: [['list']],
  use: {
    baseURL,
    viewport: { width: 1280, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    // scripts/test.sh runs a copy of the binary (CATAN_SERVER_BIN), since
    // it rebuilds target/debug/catan-server while these tests run.
    command: process.env.CATAN_SERVER_BIN || path.join(repo, 'target', 'debug', 'catan-server'),
    cwd: repo,
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      ...process.env,
      CATAN_BIND: `127.0.0.1:${port}`,
      CATAN_STATIC_DIR: path.join(repo, 'web', 'public'),
      // The pages' test hooks (window.catan, ?autoplay=1): tests only.
      CATAN_TEST_HOOKS: 'true',
      CATAN_BOT_DELAY_MS: '0',
      CATAN_RATE_PER_SEC: '50',
      CATAN_RATE_BURST: '100',
      // Every test creates lobbies from 127.0.0.1, and a game that ends
      // early makes the card test start another: more than the default 5.
      CATAN_MAX_LOBBIES_PER_CLIENT: '50',
      // The tests make many lobbies and joins from one address quickly.
      CATAN_HTTP_RATE_PER_SEC: '1000',
      CATAN_HTTP_RATE_BURST: '1000',
      RUST_LOG: process.env.RUST_LOG || 'warn',
    },
  },
});
