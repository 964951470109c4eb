// The bundled bot entered in `sheepfold match` as a sandboxed command bot, as the guide says to try a bot
// "exactly as a tournament will run it": its sandbox shows it its own folder, not a repository's proto/.
// (From this checkout the sandbox shows it the checkout's Python packages, proto/ among them, when the
// virtualenv is an editable install of it, as `make install` makes: the first test runs a copy of the
// bot away from the repository, as a bot folder of one's own is.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PYTHON, REPO_ROOT } from '../testkit/server.js';

const NODE_FOLDER = fileURLToPath(new URL('..', import.meta.url));

function match(botFolder, extra) {
  const args = ['-m', 'cli', 'match', '--game', 'sheep-n-sheep', '--players', '2', '--seed', '1', '--bot-dir', botFolder, ...extra];
  args.push('--bots', `random,cmd:${process.execPath} bin/sheepfold-node-bot.js --log-level warning`);
  const run = spawnSync(PYTHON, args, { cwd: REPO_ROOT, encoding: 'utf8', timeout: 240_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** The bot's programs, library and dependencies, copied to a folder with no repository around it. */
function copyAway() {
  const work = mkdtempSync(path.join(tmpdir(), 'sheepfold-away-'));
  const copy = path.join(work, 'mybot');
  for (const part of ['bin', 'src', 'node_modules', 'package.json']) {
    cpSync(path.join(NODE_FOLDER, part), path.join(copy, part), { recursive: true });
  }
  return { work, copy };
}

test('without the contract in its sandbox the bot crashes with one line that says how to give it, not a stack', () => {
  const { work, copy } = copyAway();
  let run;
  try {
    run = match(copy, []);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  assert.match(run.output, /seat 1 crashed .*: exit code 1: sheepfold-node-bot: cannot find the Sheepfold contract sheepfold\/v1\/arena\.proto in /);
  assert.match(run.output, /let the bot read the repository's proto\/ \(`sheepfold match --read-only`/);
  assert.doesNotMatch(run.output, /unexpected failure|ENOENT|    at /);
});

test('with the repository\'s proto/ given read-only it plays its seat to the end', () => {
  const run = match(NODE_FOLDER, ['--read-only', path.join(REPO_ROOT, 'proto')]);
  assert.equal(run.status, 0, run.output);
  assert.match(run.output, /seat 1  cmd:.* score +\d+ +rank \d\n/);
  assert.doesNotMatch(run.output, /FAILED|crashed/);
});
