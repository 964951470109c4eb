// A real `sheepfold serve` on a free loopback port, as tests/conftest.py starts it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import readline from 'node:readline';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const PYTHON = process.env.SHEEPFOLD_PYTHON ?? path.join(REPO_ROOT, '.venv', 'bin', 'python');

/**
 * Starts the server with a fresh SQLite file of its own (never the default ./sheepfold.db,
 * whose unfinished matches a later run would restore), or with `db` if given; resolves to
 * { address, port, logLines, stop() } once it logs "server started".
 */
export function startServer(extraArgs = [], { timeoutMs = 60_000, db = null } = {}) {
  const folder = db ? null : mkdtempSync(path.join(tmpdir(), 'sheepfold-node-server-'));
  const args = ['-m', 'cli', 'serve', '--port', '0', '--log-format', 'json', '--db', db ?? path.join(folder, 'server.db'), ...extraArgs];
  const child = spawn(PYTHON, args, { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  if (folder) child.on('exit', () => rmSync(folder, { recursive: true, force: true }));
  const logLines = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`did not log "server started" within ${timeoutMs} ms`), timeoutMs);
    const fail = (why) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`sheepfold serve ${why} (python: ${PYTHON}):\n${logLines.join('\n')}`));
    };
    child.on('error', (error) => fail(`could not start: ${error.message}`));
    const early = (code) => fail(`exited early with status ${code}`);
    child.on('exit', early);
    // The reader keeps draining stderr for the whole run, so a chatty server never blocks.
    readline.createInterface({ input: child.stderr }).on('line', (line) => {
      logLines.push(line);
      let entry;
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      if (entry.event === 'server started') {
        clearTimeout(timer);
        child.off('exit', early);
        resolve({ address: `127.0.0.1:${entry.port}`, port: Number(entry.port), logLines, stop: () => stopServer(child) });
      }
    });
  });
}

function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', (code) => {
      clearTimeout(killer);
      resolve(code);
    });
    child.kill('SIGTERM');
  });
}
