// What the test files share: one real server for a file's tests, a client on it,
// and the bot command (or sheepfold-create-match) run as a process of its own.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { arenaClient, unary } from '../src/index.js';
import { REPO_ROOT, startServer } from './server.js';

export const BOT = fileURLToPath(new URL('../bin/sheepfold-node-bot.js', import.meta.url));
export const CREATE_MATCH = fileURLToPath(new URL('../bin/create-match.js', import.meta.url));
export const MATCHES = JSON.parse(readFileSync(new URL('../test/matches.json', import.meta.url), 'utf8')).games;

// Only a guard against a hang (a busy machine is slow, not wrong): each test gets its own, so
// one stuck test cannot take the others down with it.
export const HANG = { timeout: 120_000 };

/** The file's server and a client on it, set by useServer's `before` hook. */
export let server;
export let client;

/** Starts one server before the file's tests and stops it after them (exit status 0 on SIGTERM). */
export function useServer() {
  before(async () => {
    server = await startServer();
    client = arenaClient(server.address);
  });
  after(async () => {
    client?.close();
    if (server) assert.equal(await server.stop(), 0, 'SIGTERM must stop the server with exit status 0');
  });
}

export async function createMatch(game, players, seed, options = MATCHES[game] ?? {}) {
  return unary(client, 'CreateMatch', { game, players, seed: String(seed), options });
}

/** Runs the bot command for one seat (or another `script`, CREATE_MATCH); resolves to { code, stdout, stderr }. */
export function runBot(args, env = {}, script = BOT, program = process.execPath) {
  return new Promise((resolve, reject) => {
    const child = spawn(program, script ? [script, ...args] : args, {
      cwd: REPO_ROOT,
      env: { ...process.env, SHEEPFOLD_SERVER: '', SHEEPFOLD_MATCH: '', SHEEPFOLD_TOKEN: '', SHEEPFOLD_SEAT: '', SHEEPFOLD_SEED: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const killer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}
