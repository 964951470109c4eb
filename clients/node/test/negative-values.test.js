// A negative number given as an option's value (`--seed -1`, as the README allows and argparse takes it) is that
// option's value, checked as any other, not refused by util.parseArgs as an option of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseConfig, UsageError } from '../src/index.js';

const CREATE_MATCH = fileURLToPath(new URL('../bin/create-match.js', import.meta.url));
const BOT = fileURLToPath(new URL('../bin/sheepfold-node-bot.js', import.meta.url));
const BASE = ['--match', 'm', '--token', 't'];

test('a negative --seed plays as its two\'s complement, as documented', () => {
  assert.equal(parseConfig([...BASE, '--seed', '-1']).seed, -1n);
  assert.equal(parseConfig([...BASE, '--seed', '-9223372036854775808']).seed, -(2n ** 63n));
  assert.equal(parseConfig(['--seed', '-5', ...BASE]).seed, -5n);
});

test('a negative --seat or --max-reconnects gets the one-line range error of its option', () => {
  for (const [option, message] of [
    ['--seat', '--seat must be at least 0, got "-1"'],
    ['--max-reconnects', '--max-reconnects must be at least 0, got "-1"'],
  ]) {
    assert.throws(() => parseConfig([...BASE, option, '-1']), (error) => error instanceof UsageError && error.message === message);
  }
  assert.throws(() => parseConfig([...BASE, '--rejoin-seconds', '-0.5']), (error) => error instanceof UsageError && /^--rejoin-seconds must be a number of seconds, got "-0.5"$/.test(error.message));
});

test('a value that only starts with a dash, not a number, is still no value', () => {
  assert.throws(() => parseConfig([...BASE, '--seat', '--seed']), (error) => error instanceof UsageError && /ambiguous/.test(error.message));
});

test('the programs say it in one line, exit 2', () => {
  const bot = spawnSync(process.execPath, [BOT, ...BASE, '--server', '127.0.0.1:1', '--seat', '-1'], { encoding: 'utf8' });
  assert.equal(bot.status, 2);
  assert.equal(bot.stderr, `sheepfold-node-bot: --seat must be at least 0, got "-1"\nRun 'sheepfold-node-bot --help' to see its options.\n`);
  const create = spawnSync(process.execPath, [CREATE_MATCH, '--server', '127.0.0.1:1', '--game', 'x', '--seed', '-1'], { encoding: 'utf8' });
  assert.equal(create.status, 2);
  assert.equal(create.stderr, `sheepfold-create-match: --seed must be at least 0, got "-1"\nRun 'sheepfold-create-match --help' to see its options.\n`);
});
