// A real `sheepfold serve` on a free loopback port, as tests/conftest.py starts it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import readline from 'node:readline';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const PYTHON = process.env.SHEEPFOLD_PYTHON ?? path.join(REPO_ROOT, '.venv', 'bin', 'python');

/** Starts the server; resolves to { address, port, logLines, stop() } once it logs "server started". */
export function startServer(extraArgs = [], { timeoutMs = 30_000 } = {}) {
  const child = spawn(PYTHON, ['-m', 'cli', 'serve', '--port', '0', '--log-format', 'json', ...extraArgs], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const logLines = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`did not log "server started" within ${timeoutMs} ms`), timeoutMs);
    const fail = (why) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`sheepfold serve ${why} (python: ${PYTHON}):\n${logLines.join('\n')}`));
    };
    child.on('error', (error) => fail(`could not start: ${error.message}`));
    child.on('exit', (code) => fail(`exited early with status ${code}`));
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
        child.removeAllListeners('exit');
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
