// The Node library (playSeat) against a real server: matches of every game, seeds, events,
// and what it does when connections drop, joins are refused or the server restarts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { arenaClient, createLogger, playSeat, randomBot, SeatError, grpc, unary } from '../src/index.js';
import { client, createMatch, HANG, MATCHES, runBot, server, useServer } from '../testkit/arena.js';
import { startServer } from '../testkit/server.js';
import { startProxy } from '../testkit/proxy.js';
import { startRelay } from '../testkit/relay.js';

const EXPECTED_GAMES = Object.keys(MATCHES);

useServer();

/** The server's last log lines, for failure messages. */
function serverTail(lines = 15) {
  return server.logLines.slice(-lines).join('\n');
}

/** One unary call on a channel of its own. */
async function oneCall(address, method, request) {
  const own = arenaClient(address);
  try {
    return await unary(own, method, request);
  } finally {
    own.close();
  }
}

/** Logs captured in memory, for checking what the bot reported. */
function capturingLogger() {
  const lines = [];
  return { log: createLogger({ level: 'debug', write: (line) => lines.push(JSON.parse(line)) }), lines };
}

function playerCount(info) {
  return Math.min(Math.max(2, info.min_players), info.max_players);
}

function assertSameResult(result, other, where) {
  assert.deepEqual([...other.scores], [...result.scores], `${where}: scores differ`);
  assert.deepEqual([...other.ranks], [...result.ranks], `${where}: ranks differ`);
}

describe('the Node bot against a real server', () => {
  test('every view carries the options the match is played with, as Joined gives them', HANG, async () => {
    // playSeat read Joined.options into a log line and dropped them: a bot had to know
    // each game's observation fields (wolf_variant, double_trouble) to learn them.
    for (const [game, given, seen] of [
      ['stubborn-sheep', { wolf: 'yes' }, { wolf: 'true', bonus_actions: 'false' }],
      ['sheep-n-sheep', {}, {}],
    ]) {
      const created = await createMatch(game, 2, 61, given);
      const views = [];
      await Promise.all(
        created.seat_tokens.map((token, seat) =>
          playSeat({
            address: server.address,
            matchId: created.match_id,
            token,
            decide: seat === 0 ? (view) => { views.push({ ...view.options }); return 0; } : randomBot(9),
          }),
        ),
      );
      assert.ok(views.length > 0, `${game}: the bot was asked nothing`);
      for (const options of views) assert.deepEqual(options, seen, game);
    }
  });

  test('ListGames lists all four games', HANG, async () => {
    const { games } = await unary(client, 'ListGames', {});
    const names = games.map((game) => game.name);
    for (const name of EXPECTED_GAMES) assert.ok(names.includes(name), `${name} missing from ListGames: ${names}`);
  });

  test('one match of every listed game, every seat a bot process, plays to a result', HANG, async () => {
    const { games } = await unary(client, 'ListGames', {});
    assert.ok(games.length >= EXPECTED_GAMES.length, `ListGames returned ${games.length} games`);
    await Promise.all(
      games.map(async (info, gameIndex) => {
        const players = playerCount(info);
        const created = await createMatch(info.name, players, 1000 + gameIndex);
        const runs = await Promise.all(
          created.seat_tokens.map((token, seat) =>
            // Seat 0 is configured the way the tournament runner does it (environment only), the others by flags.
            seat === 0
              ? runBot([], {
                  SHEEPFOLD_SERVER: server.address,
                  SHEEPFOLD_MATCH: created.match_id,
                  SHEEPFOLD_TOKEN: token,
                  SHEEPFOLD_SEED: '7',
                })
              : runBot(['--server', server.address, '--match', created.match_id, '--token', token, '--seat', String(seat), '--seed', String(seat)]),
          ),
        );
        const outputs = runs.map((run, seat) => {
          assert.equal(run.code, 0, `${info.name} seat ${seat} exited ${run.code}:\n${run.stderr}\nserver log tail:\n${serverTail()}`);
          const lines = run.stdout.trim().split('\n');
          assert.equal(lines.length, 1, `${info.name} seat ${seat}: stdout must be one JSON line, got:\n${run.stdout}`);
          return JSON.parse(lines[0]);
        });
        const first = outputs[0];
        assert.equal(first.scores.length, players, `${info.name}: one score per seat`);
        assert.equal(first.ranks.length, players, `${info.name}: one rank per seat`);
        for (const rank of first.ranks) assert.ok(rank >= 1 && rank <= players, `${info.name}: rank ${rank} out of range`);
        const rankedFirst = first.ranks.flatMap((rank, seat) => (rank === 1 ? [seat] : []));
        assert.deepEqual(first.winners, rankedFirst, `${info.name}: winners are the seats ranked 1`);
        assert.equal(first.end_reason, 'game over');
        outputs.forEach((output, seat) => {
          assert.equal(output.match_id, created.match_id);
          assert.equal(output.game, info.name);
          assert.equal(output.seat, seat, `${info.name}: the bot reports the seat it played`);
          assertSameResult(first, output, `${info.name} seat ${seat}`);
        });
        const match = await unary(client, 'GetMatch', { match_id: created.match_id });
        assert.equal(match.status, 'MATCH_STATUS_FINISHED');
        assertSameResult(first, match.result, `${info.name} GetMatch`);
        // Every move was the bot's own: no deadline missed, nothing played at random by the server.
        const replay = await unary(client, 'GetReplay', { match_id: created.match_id });
        assert.ok(replay.actions.length > 0, `${info.name}: the replay has moves`);
        assert.deepEqual(replay.actions.filter((action) => action.forced), [], `${info.name}: forced moves\n${serverTail()}`);
        assert.deepEqual(match.seats.map((seat) => seat.strikes), new Array(players).fill(0), `${info.name}: strikes`);
      }),
    );
  });

  test('the same match seed and bot seeds give the same game', HANG, async () => {
    const replays = [];
    for (let run = 0; run < 2; run += 1) {
      const created = await createMatch('sheep-showdown', 2, 4242);
      await Promise.all(
        created.seat_tokens.map((token, seat) =>
          playSeat({ address: server.address, matchId: created.match_id, token, decide: randomBot(seat + 11) }),
        ),
      );
      replays.push(await unary(client, 'GetReplay', { match_id: created.match_id }));
    }
    const indices = replays.map((replay) => replay.actions.map((action) => [action.seat, action.action_index]));
    assert.ok(indices[0].length > 0);
    assert.deepEqual(indices[1], indices[0]);
    // Different bot seeds play a different game from the same deal.
    const created = await createMatch('sheep-showdown', 2, 4242);
    await Promise.all(
      created.seat_tokens.map((token, seat) =>
        playSeat({ address: server.address, matchId: created.match_id, token, decide: randomBot(seat + 500) }),
      ),
    );
    const other = await unary(client, 'GetReplay', { match_id: created.match_id });
    assert.notDeepEqual(other.actions.map((action) => [action.seat, action.action_index]), indices[0]);
  });

  test('with events inside decisions each seat sees the same events, in the same order, as with one message each', HANG, async () => {
    const seen = [];
    for (const eventsInDecisions of [true, false]) {
      const created = await createMatch('stubborn-sheep', 2, 77, { wolf: 'true', bonus_actions: 'true' });
      const events = [[], []];
      await Promise.all(
        created.seat_tokens.map((token, seat) =>
          playSeat({
            address: server.address,
            matchId: created.match_id,
            token,
            decide: randomBot(seat + 3),
            onEvent: (event) => events[seat].push(JSON.stringify(event)),
            eventsInDecisions,
          }),
        ),
      );
      seen.push(events);
    }
    assert.ok(seen[1][0].length > 10 && seen[1][1].length > 10);
    assert.deepEqual(seen[0], seen[1]);
  });

  test('an async onEvent is awaited: each event is handled before the next decision, and its rejection fails the seat', HANG, async () => {
    // Its promise was dropped: decide ran before the events were handled, and a rejection crashed
    // the whole process (an unhandled rejection) instead of ending the seat with a SeatError.
    const created = await createMatch('stubborn-sheep', 2, 78);
    let pending = 0;
    let handled = 0;
    const unfinished = [];
    const onEvent = async () => {
      pending += 1;
      await new Promise((resolve) => setTimeout(resolve, 1));
      pending -= 1;
      handled += 1;
    };
    const decide = (view) => {
      unfinished.push(pending);
      return 0;
    };
    await Promise.all(
      created.seat_tokens.map((token, seat) =>
        playSeat({ address: server.address, matchId: created.match_id, token, decide: seat === 0 ? decide : randomBot(5), onEvent: seat === 0 ? onEvent : undefined }),
      ),
    );
    assert.ok(handled > 10, `${handled} events handled`);
    assert.deepEqual([...new Set(unfinished)], [0], 'no event still being handled when decide is asked');

    const failing = await createMatch('stubborn-sheep', 2, 79);
    const outcomes = await Promise.allSettled(
      failing.seat_tokens.map((token, seat) =>
        playSeat({
          address: server.address,
          matchId: failing.match_id,
          token,
          decide: randomBot(seat),
          onEvent: seat === 0 ? async () => { throw new Error('async event boom'); } : undefined,
        }),
      ),
    );
    assert.equal(outcomes[0].status, 'rejected');
    assert.ok(outcomes[0].reason instanceof SeatError, String(outcomes[0].reason));
    assert.match(outcomes[0].reason.message, /the bot failed: async event boom/);
  });

  test('an out-of-range answer is logged as INVALID_ARGUMENT and the same decision is asked again', HANG, async () => {
    const created = await createMatch('sheep-n-sheep', 2, 31);
    const { log, lines } = capturingLogger();
    const seen = [];
    const random = randomBot(3);
    const decide = (view) => {
      seen.push(view.decisionId);
      return seen.length === 1 ? view.actions.length + 5 : random(view);
    };
    const [outcome] = await Promise.all([
      playSeat({ address: server.address, matchId: created.match_id, token: created.seat_tokens[0], decide, log }),
      playSeat({ address: server.address, matchId: created.match_id, token: created.seat_tokens[1], decide: randomBot(4) }),
    ]);
    assert.equal(outcome.result.scores.length, 2);
    const refusals = lines.filter((line) => line.event === 'server refused an answer');
    assert.equal(refusals.length, 1, JSON.stringify(lines, null, 1));
    assert.equal(refusals[0].code, 'INVALID_ARGUMENT');
    assert.equal(refusals[0].decision_id, seen[0]);
    assert.equal(seen[1], seen[0], 'the refused decision comes back with the same id');
    assert.equal(outcome.reconnects, 0);
  });

  test('a dropped connection is rejoined with backoff and the pending decision is sent again', HANG, async () => {
    const proxy = await startProxy(server.port);
    try {
      const created = await createMatch('stubborn-sheep', 2, 77);
      const { log, lines } = capturingLogger();
      const seen = [];
      const random = randomBot(5);
      const decide = (view) => {
        seen.push(view.decisionId);
        // Cut the line on the third decision, before the answer can leave: the server never gets it.
        if (seen.length === 3) proxy.cut();
        return random(view);
      };
      const [outcome] = await Promise.all([
        playSeat({ address: proxy.address, matchId: created.match_id, token: created.seat_tokens[0], decide, log }),
        playSeat({ address: server.address, matchId: created.match_id, token: created.seat_tokens[1], decide: randomBot(6) }),
      ]);
      assert.equal(proxy.cuts, 1);
      assert.ok(outcome.reconnects >= 1, `reconnects: ${outcome.reconnects}`);
      const lost = lines.filter((line) => line.event === 'connection lost, rejoining');
      assert.ok(lost.length >= 1, JSON.stringify(lines, null, 1));
      assert.match(lost[0].reason, /^UNAVAILABLE/);
      assert.equal(lines.filter((line) => line.event === 'joined').length, outcome.reconnects + 1);
      assert.equal(seen[3], seen[2], 'the decision pending at the cut is sent again after the rejoin');
      const match = await unary(client, 'GetMatch', { match_id: created.match_id });
      assert.equal(match.status, 'MATCH_STATUS_FINISHED');
      assert.deepEqual(match.seats.map((seat) => seat.strikes), [0, 0]);
      assertSameResult(outcome.result, match.result, 'GetMatch');
    } finally {
      await proxy.close();
    }
  });

  test('Play calls cancelled or refused before the join was answered are retried with backoff', HANG, async () => {
    // What a server flooded with streams that a hostile client opens and resets does to honest bots.
    const { CANCELLED, RESOURCE_EXHAUSTED, INTERNAL } = grpc.status;
    const refuse = [CANCELLED, CANCELLED, RESOURCE_EXHAUSTED, INTERNAL];
    const relay = await startRelay(server.address, { refuse });
    try {
      const created = await createMatch('stubborn-sheep', 2, 41);
      const { log, lines } = capturingLogger();
      const [outcome] = await Promise.all([
        playSeat({ address: relay.address, matchId: created.match_id, token: created.seat_tokens[0], decide: randomBot(7), log }),
        playSeat({ address: server.address, matchId: created.match_id, token: created.seat_tokens[1], decide: randomBot(8) }),
      ]);
      assert.equal(relay.playCalls, refuse.length + 1);
      const lost = lines.filter((line) => line.event === 'connection lost, rejoining');
      assert.deepEqual(lost.map((line) => line.reason.split(':')[0]), ['CANCELLED', 'CANCELLED', 'RESOURCE_EXHAUSTED', 'INTERNAL']);
      assert.deepEqual(lost.map((line) => line.delay_ms), [100, 200, 400, 800], 'backoff');
      assert.equal(outcome.reconnects, 0, 'one join acknowledged: no rejoin counted');
      const match = await unary(client, 'GetMatch', { match_id: created.match_id });
      assert.equal(match.status, 'MATCH_STATUS_FINISHED');
      assert.deepEqual(match.seats.map((seat) => seat.strikes), [0, 0]);
      assertSameResult(outcome.result, match.result, 'GetMatch');
    } finally {
      relay.close();
    }
  });

  test('a join refused for its size is final at once, and says to check the match id and token', HANG, async () => {
    // A pasted file as the match id: the server reads no request past its --max-request-bytes (16 KiB), and
    // refuses it RESOURCE_EXHAUSTED, which before the join is otherwise a burst of joins worth retrying.
    const created = await createMatch('sheep-n-sheep', 2, 43);
    const { log, lines } = capturingLogger();
    await assert.rejects(
      playSeat({ address: server.address, matchId: 'x'.repeat(100_000), token: created.seat_tokens[0], decide: randomBot(1), log }),
      (error) => error instanceof SeatError
        && error.code === grpc.status.RESOURCE_EXHAUSTED
        && error.details.includes('Received message larger than max')
        && error.details.endsWith('the join is larger than the server takes; check the match id and token'),
    );
    assert.deepEqual(lines.filter((line) => line.event === 'connection lost, rejoining'), [], 'no join sent again');
  });

  test('once joined, a CANCELLED stream is final: the seat is lost without a rejoin', HANG, async () => {
    const relay = await startRelay(server.address, { cutAfterDecisions: 1, cutCode: grpc.status.CANCELLED });
    try {
      const created = await createMatch('sheep-n-sheep', 2, 42);
      const opponent = playSeat({ address: server.address, matchId: created.match_id, token: created.seat_tokens[1], decide: randomBot(2) });
      await assert.rejects(
        playSeat({ address: relay.address, matchId: created.match_id, token: created.seat_tokens[0], decide: randomBot(1) }),
        (error) => error instanceof SeatError && error.code === grpc.status.CANCELLED,
      );
      assert.equal(relay.playCalls, 1);
      // The seat is still there for a join of its own: play the match out.
      await playSeat({ address: server.address, matchId: created.match_id, token: created.seat_tokens[0], decide: randomBot(1) });
      await opponent;
    } finally {
      relay.close();
    }
  });

  test('a seat that joined, lost its stream, then had rejoins refused before their join is answered, rejoins again', HANG, async () => {
    // Every bot rejoining a restarted server at once, from one address: past its bound on joins waiting
    // from one address, the server pushes the oldest out. The join of the stream before is no reason to stop.
    const { UNAVAILABLE, RESOURCE_EXHAUSTED, DEADLINE_EXCEEDED } = grpc.status;
    const relay = await startRelay(server.address, {
      cutAfterDecisions: 1,
      cutCode: UNAVAILABLE,
      refuseAfterCut: [RESOURCE_EXHAUSTED, DEADLINE_EXCEEDED],
    });
    try {
      const created = await createMatch('sheep-showdown', 2, 43);
      const { log, lines } = capturingLogger();
      const [outcome] = await Promise.all([
        playSeat({ address: relay.address, matchId: created.match_id, token: created.seat_tokens[0], decide: randomBot(3), log }),
        playSeat({ address: server.address, matchId: created.match_id, token: created.seat_tokens[1], decide: randomBot(4) }),
      ]);
      assert.equal(relay.playCalls, 4);
      const lost = lines.filter((line) => line.event === 'connection lost, rejoining');
      assert.deepEqual(lost.map((line) => line.reason.split(':')[0]), ['UNAVAILABLE', 'RESOURCE_EXHAUSTED', 'DEADLINE_EXCEEDED']);
      assert.equal(outcome.reconnects, 1, 'one rejoin acknowledged');
      const match = await unary(client, 'GetMatch', { match_id: created.match_id });
      assertSameResult(outcome.result, match.result, 'GetMatch');
    } finally {
      relay.close();
    }
  });

  test('a seat cut INTERNAL as it answers, after a newer join took it, stops as replaced rather than taking it back', HANG, async () => {
    // grpc may report a stream that a newer join replaced (ABORTED) as INTERNAL, when a write failed as it
    // ended (grpc/grpc#36066): the relay ends seat 0's stream INTERNAL as the bot answers its second decision,
    // a newer stream having joined seat 0 just before. Rejoining would take the seat back from it.
    const relay = await startRelay(server.address, { cutAfterDecisions: 2, cutCode: grpc.status.INTERNAL, cutOnAnswer: true });
    try {
      const created = await createMatch('sheep-showdown', 2, 43);
      const token = created.seat_tokens[0];
      const other = playSeat({ address: server.address, matchId: created.match_id, token: created.seat_tokens[1], decide: randomBot(2) });
      let oldSettled;
      const oldDone = new Promise((resolve) => (oldSettled = resolve));
      let newer = null;
      let decisions = 0;
      const decide = async () => {
        decisions += 1;
        if (decisions === 2) {
          // A second copy of the bot joins seat 0 straight to the server; it answers once the old one has stopped.
          let joined;
          const log = createLogger({ level: 'info', write: (line) => JSON.parse(line).event === 'joined' && joined() });
          const joinedNow = new Promise((resolve) => (joined = resolve));
          const random = randomBot(5);
          newer = playSeat({ address: server.address, matchId: created.match_id, token, decide: (view) => oldDone.then(() => random(view)), log });
          newer.catch(() => {}); // ABORTED when the old one takes the seat back: awaited below
          await joinedNow;
        }
        return 0;
      };
      const { log, lines } = capturingLogger();
      const old = playSeat({ address: relay.address, matchId: created.match_id, token, decide, log }).then(
        (outcome) => outcome,
        (error) => error,
      );
      const ended = await old;
      oldSettled();
      // The newer stream still holds the seat: nobody took it back.
      const held = await unary(client, 'GetMatch', { match_id: created.match_id });
      assert.ok(ended instanceof SeatError, `rejoined and played on to ${ended.result ? 'the result' : String(ended)}`);
      assert.equal(ended.code, grpc.status.ABORTED);
      assert.equal(ended.details, 'replaced by a newer join for seat 0');
      assert.equal(relay.playCalls, 1, 'no rejoin');
      assert.ok(held.seats[0].connected, 'the newer stream holds seat 0');
      assert.deepEqual(lines.filter((line) => line.event === 'connection lost, rejoining'), []);
      const [mine, theirs] = await Promise.all([newer, other]);
      assert.equal(mine.reconnects, 0, 'the newer stream was never replaced');
      assertSameResult(mine.result, theirs.result, 'both seats');
    } finally {
      relay.close();
    }
  });

  test('a seat cut INTERNAL as it answers, nobody else holding it, rejoins and finishes', HANG, async () => {
    const relay = await startRelay(server.address, { cutAfterDecisions: 2, cutCode: grpc.status.INTERNAL, cutOnAnswer: true });
    try {
      const created = await createMatch('sheep-showdown', 2, 43);
      const { log, lines } = capturingLogger();
      const [mine, other] = await Promise.all([
        playSeat({ address: relay.address, matchId: created.match_id, token: created.seat_tokens[0], decide: randomBot(1), log }),
        playSeat({ address: server.address, matchId: created.match_id, token: created.seat_tokens[1], decide: randomBot(2) }),
      ]);
      assert.equal(relay.playCalls, 2);
      const lost = lines.filter((line) => line.event === 'connection lost, rejoining');
      assert.deepEqual(lost.map((line) => line.reason.split(':')[0]), ['INTERNAL']);
      assert.equal(mine.reconnects, 1);
      assertSameResult(mine.result, other.result, 'both seats');
    } finally {
      relay.close();
    }
  });

  test('a bot whose decide throws loses its seat at once, without a rejoin', HANG, async () => {
    const relay = await startRelay(server.address, {});
    try {
      const created = await createMatch('sheep-n-sheep', 2, 43);
      const opponent = playSeat({ address: server.address, matchId: created.match_id, token: created.seat_tokens[1], decide: randomBot(2) });
      const broken = () => {
        throw new Error('no idea');
      };
      await assert.rejects(
        playSeat({ address: relay.address, matchId: created.match_id, token: created.seat_tokens[0], decide: broken }),
        (error) => error instanceof SeatError && error.code === grpc.status.CANCELLED && error.details === 'the bot failed: no idea',
      );
      assert.equal(relay.playCalls, 1);
      await playSeat({ address: server.address, matchId: created.match_id, token: created.seat_tokens[0], decide: randomBot(1) });
      await opponent;
    } finally {
      relay.close();
    }
  });

  test('the server restarts mid-match: both bots wait it out with backoff, rejoin and finish the restored match', HANG, async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'sheepfold-node-restart-'));
    const db = path.join(folder, 'restart.db');
    let first = await startServer([], { db });
    const proxy = await startProxy(first.port);
    let second = null;
    try {
      const created = await oneCall(proxy.address, 'CreateMatch', { game: 'sheep-n-sheep', players: 2, seed: '8' });
      const { log, lines } = capturingLogger();
      const prompts = [];
      const random = randomBot(9);
      let restarted = null;
      const decide = (view) => {
        prompts.push(view.actions.map((action) => action.label).join('|'));
        if (prompts.length !== 3) return random(view);
        // Hold this answer until the server is back: it never reaches the old server.
        restarted = (async () => {
          assert.equal(await first.stop(), 0);
          second = await startServer([], { db });
          proxy.retarget(second.port);
        })();
        return restarted.then(() => random(view));
      };
      const [outcome, other] = await Promise.all([
        playSeat({ address: proxy.address, matchId: created.match_id, token: created.seat_tokens[0], decide, log }),
        playSeat({ address: proxy.address, matchId: created.match_id, token: created.seat_tokens[1], decide: randomBot(10) }),
      ]);
      await restarted;
      const started = second.logLines.map((line) => JSON.parse(line)).find((entry) => entry.event === 'server started');
      assert.equal(started.restored_matches, 1, 'the second server restored the unfinished match');
      assert.ok(outcome.reconnects >= 1 && other.reconnects >= 1, `reconnects ${outcome.reconnects} and ${other.reconnects}`);
      const lost = lines.filter((line) => line.event === 'connection lost, rejoining');
      assert.match(lost[0].reason, /^UNAVAILABLE/);
      assert.equal(prompts[3], prompts[2], 'the decision open at the restart is asked again by the restored match');
      assertSameResult(outcome.result, other.result, 'both seats');
      const match = await oneCall(proxy.address, 'GetMatch', { match_id: created.match_id });
      assert.equal(match.status, 'MATCH_STATUS_FINISHED');
      assert.deepEqual(match.seats.map((seat) => seat.strikes), [0, 0]);
    } finally {
      await proxy.close();
      await first.stop();
      if (second) await second.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('a newer join for the same seat ends the old stream ABORTED; the old bot stops, the new one plays on', HANG, async () => {
    const created = await createMatch('sheep-and-garden', 2, 12);
    let replaced;
    const firstDecision = new Promise((resolve) => (replaced = resolve));
    // The first bot never answers: it waits while a second bot takes its seat.
    const old = playSeat({
      address: server.address,
      matchId: created.match_id,
      token: created.seat_tokens[0],
      decide: (view) => {
        replaced(view);
        return new Promise(() => {});
      },
    });
    const other = playSeat({ address: server.address, matchId: created.match_id, token: created.seat_tokens[1], decide: randomBot(1) });
    const pending = await firstDecision;
    const fresh = playSeat({ address: server.address, matchId: created.match_id, token: created.seat_tokens[0], decide: randomBot(2) });
    await assert.rejects(old, (error) => error instanceof SeatError && error.code === grpc.status.ABORTED);
    const [outcome] = await Promise.all([fresh, other]);
    assert.equal(outcome.result.scores.length, 2);
    assert.equal(outcome.reconnects, 0);
    assert.ok(pending.decisionId, 'the old bot had a decision open when it was replaced');
  });
});
