// What `npm pack` ships: a tarball a bot of one's own can install and run, away from this repository
// (a tournament's sandbox shows a bot only its own folder), with the contract in it and none of the tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const NODE_FOLDER = fileURLToPath(new URL('..', import.meta.url));
const REPO_PROTO = fileURLToPath(new URL('../../../proto/sheepfold/v1', import.meta.url));
const PROTO_FILES = readdirSync(REPO_PROTO).filter((name) => name.endsWith('.proto'));

/**
 * Packs a copy of this folder (beside a copy of the .proto files, as in the repository: packing here would
 * put proto/ in this folder for a moment, under the other test files' feet) and unpacks the tarball into
 * a fresh folder elsewhere, its dependencies linked from ours. Returns the packed paths and the unpacked folder.
 */
function packAndUnpack(scripts) {
  const work = mkdtempSync(path.join(tmpdir(), 'sheepfold-pack-'));
  const copy = path.join(work, 'repo', 'clients', 'node');
  cpSync(NODE_FOLDER, copy, { recursive: true, filter: (source) => !source.startsWith(path.join(NODE_FOLDER, 'node_modules')) });
  for (const name of PROTO_FILES) cpSync(path.join(REPO_PROTO, name), path.join(work, 'repo', 'proto', 'sheepfold', 'v1', name));
  const out = path.join(work, 'out');
  mkdirSync(out);
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', `--ignore-scripts=${!scripts}`, '--pack-destination', out], { cwd: copy, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
  )[0];
  const unpacked = path.join(work, 'elsewhere', 'app');
  mkdirSync(unpacked, { recursive: true });
  execFileSync('tar', ['xzf', path.join(out, packed.filename), '-C', unpacked, '--strip-components', '1']);
  symlinkSync(path.join(NODE_FOLDER, 'node_modules'), path.join(unpacked, 'node_modules'));
  return { work, copy, files: packed.files.map((file) => file.path), unpacked };
}

/** The packed bot against a port nobody listens on: it must load the contract to get that far. */
function runUnreachable(folder) {
  return spawnSync(
    process.execPath,
    [path.join(folder, 'bin', 'sheepfold-node-bot.js'), '--server', '127.0.0.1:1', '--match', 'm', '--token', 't', '--max-reconnects', '0'],
    { encoding: 'utf8', timeout: 30_000 },
  );
}

test('npm pack ships the programs, the library and the contract, and none of the tests', () => {
  const { work, copy, files, unpacked } = packAndUnpack(true);
  try {
    for (const name of PROTO_FILES) assert.ok(files.includes(`proto/sheepfold/v1/${name}`), `${name} is not in ${files}`);
    for (const file of ['bin/sheepfold-node-bot.js', 'bin/create-match.js', 'src/index.js', 'package.json', 'README.md']) {
      assert.ok(files.includes(file), `${file} is not in ${files}`);
    }
    const extra = files.filter((file) => /^(test|testkit|scripts)\/|^run-tests\.sh$/.test(file));
    assert.deepEqual(extra, [], 'the tests and the packing script are no part of what a bot needs');
    assert.equal(existsSync(path.join(copy, 'proto')), false, 'the copy made for the tarball is removed after packing');

    const run = runUnreachable(unpacked);
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /^sheepfold-node-bot: UNAVAILABLE: cannot reach the server at 127\.0\.0\.1:1: connection refused/m);
    assert.doesNotMatch(run.stderr, /unexpected failure|ENOENT/);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('a package packed without its scripts (ignore-scripts) says in one line that it has no contract', () => {
  const { work, files, unpacked } = packAndUnpack(false);
  try {
    assert.equal(files.filter((file) => file.startsWith('proto/')).length, 0);
    const run = runUnreachable(unpacked);
    assert.equal(run.status, 1, run.stderr);
    assert.equal(
      run.stderr,
      `sheepfold-node-bot: cannot find the Sheepfold contract sheepfold/v1/arena.proto in ${path.join(path.dirname(path.dirname(unpacked)), 'proto')} ` +
        `(the repository's proto/) nor in ${path.join(unpacked, 'proto')} (the copy a tarball carries): ` +
        "in a bot sandbox, let the bot read the repository's proto/ (`sheepfold match --read-only`, a tournament bot's " +
        '`sandbox.read_only`); pack with `npm pack --ignore-scripts=false`\n',
    );
    // sheepfold-create-match says the same in its own name: a failure, not a usage error (no 'Run ... --help').
    const create = spawnSync(process.execPath, [path.join(unpacked, 'bin', 'create-match.js'), '--game', 'g', '--server', '127.0.0.1:1'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(create.status, 1, create.stderr);
    assert.equal(create.stderr, run.stderr.replace(/^sheepfold-node-bot: /, 'sheepfold-create-match: '));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

// The README linked ../../docs/writing-a-bot.md, which a tarball has no repository around to hold; and
// create-match.js was shipped with no command to run it by.
test('the packed README links only to what the package holds, and every program it ships is a command', () => {
  const { work, files, unpacked } = packAndUnpack(true);
  try {
    const readme = readFileSync(path.join(unpacked, 'README.md'), 'utf8');
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((link) => link[1]).filter((target) => !/^(#|[a-z]+:)/.test(target));
    for (const target of targets) {
      const file = path.normalize(target.split('#')[0]);
      assert.ok(files.includes(file), `the README links to ${target}, which is not in the package (${files})`);
    }

    const { bin } = JSON.parse(readFileSync(path.join(unpacked, 'package.json'), 'utf8'));
    const programs = files.filter((file) => file.startsWith('bin/'));
    assert.deepEqual(Object.values(bin).map((file) => path.normalize(file)).sort(), programs.sort(), `every bin/ program is a command: ${JSON.stringify(bin)}`);
    for (const [name, file] of Object.entries(bin)) {
      assert.match(name, /^sheepfold-/, 'a command named for what it belongs to');
      const help = spawnSync(process.execPath, [path.join(unpacked, file), '--help'], { encoding: 'utf8', timeout: 30_000 });
      assert.equal(help.status, 0, help.stderr);
      assert.ok(help.stdout.startsWith(`usage: ${name} `), `${file} --help names its command ${name}: ${help.stdout.split('\n')[0]}`);
      assert.ok(readme.includes(`npx ${name}`), `the README says how to run ${name} from an installed package`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
