// create-match.js refuses a --decision-seconds above 0 and below 0.001 before connecting, as `sheepfold create`
// does (the README says it checks its numbers so): the server refuses such a deadline, and the match was once asked
// for and refused INVALID_ARGUMENT, exit 1, where `sheepfold create` gives a usage error, exit 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CREATE_MATCH = fileURLToPath(new URL('../bin/create-match.js', import.meta.url));
// Nothing listens on port 1: a value taken reaches the connection and fails there, exit 1.
const BASE = ['--server', '127.0.0.1:1', '--game', 'sheep-n-sheep'];

function createMatch(seconds) {
  return spawnSync(process.execPath, [CREATE_MATCH, ...BASE, '--decision-seconds', seconds], { encoding: 'utf8' });
}

test('a deadline above 0 and below 0.001 s is a usage error, exit 2, before connecting', () => {
  for (const seconds of ['0.0005', '0.0009999', '.0001']) {
    const run = createMatch(seconds);
    assert.equal(run.status, 2, run.stderr);
    assert.equal(
      run.stderr,
      `sheepfold-create-match: --decision-seconds must be 0 (the server's default) or 0.001 to 3600, got "${seconds}"\nRun 'sheepfold-create-match --help' to see its options.\n`,
    );
  }
});

test('0 (the server\'s default), 0.001 and 3600 are taken, and go on to the server', () => {
  for (const seconds of ['0', '0.0', '0.001', '3600']) {
    const run = createMatch(seconds);
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /^sheepfold-create-match: UNAVAILABLE: cannot reach the server at 127\.0\.0\.1:1/);
  }
});
