// A decide or onEvent of the user's own that throws or rejects: the seat ends with a SeatError that
// carries the user's error as its cause, so Node prints where in the bot it was thrown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { grpc, playSeat, SeatError } from '../src/index.js';
import { FakeCall, decision } from '../testkit/fake-call.js';

const INDEX = fileURLToPath(new URL('../src/index.js', import.meta.url));

function playOneDecision(options) {
  const call = new FakeCall();
  const client = { Play: () => call, close() {} };
  const outcome = playSeat({ client, matchId: 'm', token: 't', decide: () => 0, ...options });
  call.feed('joined', { seat: 0, game: 'g', players: 2 });
  call.feed('decision', { ...decision(1), events: [{ move: 1 }] });
  return { call, outcome };
}

test("a decide that throws or rejects ends the seat with a SeatError whose cause is the bot's own error", async () => {
  const thrown = new TypeError("Cannot read properties of undefined (reading 'x')");
  for (const [how, options] of [
    ['decide throws', { decide: () => { throw thrown; } }],
    ['decide rejects', { decide: async () => { throw thrown; } }],
    ['onEvent throws', { onEvent: () => { throw thrown; } }],
  ]) {
    const { call, outcome } = playOneDecision(options);
    await assert.rejects(outcome, (error) => {
      assert.ok(error instanceof SeatError, how);
      assert.equal(error.code, grpc.status.CANCELLED, how);
      assert.equal(error.message, `CANCELLED: the bot failed: ${thrown.message}`, how);
      assert.equal(error.cause, thrown, how);
      return true;
    });
    assert.ok(call.destroyed, `${how}: the stream is cancelled`);
  }
});

test('a bot left to crash on its own error shows the line of the bot that threw it', () => {
  // As the README's sample does: playSeat's rejection is left to Node to print.
  const bot = `
    import { playSeat } from ${JSON.stringify(INDEX)};
    import { FakeCall, decision } from ${JSON.stringify(fileURLToPath(new URL('../testkit/fake-call.js', import.meta.url)))};
    const call = new FakeCall();
    const outcome = playSeat({ client: { Play: () => call, close() {} }, matchId: 'm', token: 't',
      decide: function myStrategy(view) { return view.nothing.here; } });
    call.feed('joined', { seat: 0, game: 'g', players: 2 });
    call.feed('decision', decision(1));
    await outcome;
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', bot], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(run.status, 1, run.stderr);
  assert.match(run.stderr, /SeatError: CANCELLED: the bot failed: Cannot read properties of undefined \(reading 'here'\)/);
  assert.match(run.stderr, /\[cause\]: TypeError: Cannot read properties of undefined \(reading 'here'\)\n\s+at myStrategy /);
});
