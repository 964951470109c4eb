// The bundled bot entered in `sheepfold match` as a sandboxed command bot, as the guide says to try a bot
// "exactly as a tournament will run it": its sandbox shows it this folder only, not the repository's proto/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PYTHON, REPO_ROOT } from '../testkit/server.js';

const NODE_FOLDER = fileURLToPath(new URL('..', import.meta.url));

function match(extra) {
  const args = ['-m', 'cli', 'match', '--game', 'sheep-n-sheep', '--players', '2', '--seed', '1', '--bot-dir', NODE_FOLDER, ...extra];
  args.push('--bots', `random,cmd:${process.execPath} bin/sheepfold-node-bot.js --log-level warning`);
  const run = spawnSync(PYTHON, args, { cwd: REPO_ROOT, encoding: 'utf8', timeout: 240_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

test('without the contract in its sandbox the bot crashes with one line that says how to give it, not a stack', () => {
  const run = match([]);
  assert.match(run.output, /seat 1 crashed .*: exit code 1: sheepfold-node-bot: cannot find the Sheepfold contract sheepfold\/v1\/arena\.proto in /);
  assert.match(run.output, /let the bot read the repository's proto\/ \(`sheepfold match --read-only`/);
  assert.doesNotMatch(run.output, /unexpected failure|ENOENT|    at /);
});

test('with the repository\'s proto/ given read-only it plays its seat to the end', () => {
  const run = match(['--read-only', path.join(REPO_ROOT, 'proto')]);
  assert.equal(run.status, 0, run.output);
  assert.match(run.output, /seat 1  cmd:.* score +\d+ +rank \d\n/);
  assert.doesNotMatch(run.output, /FAILED|crashed/);
});
