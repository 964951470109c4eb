#!/usr/bin/env node
// The whole protocol in one file, with nothing but @grpc/grpc-js and @grpc/proto-loader:
// join, answer every decision with an index, stop at the result. No reconnecting and no
// seeded randomness: see src/play.js for those. It prefers any action whose label does
// not start with "pass" or "stop", to show that labels are there to be read.
//
//   SHEEPFOLD_SERVER=127.0.0.1:50051 SHEEPFOLD_MATCH=<id> SHEEPFOLD_TOKEN=<token> node examples/minimal-bot.js
import { fileURLToPath } from 'node:url';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';

const PROTO_DIR = fileURLToPath(new URL('../../../proto', import.meta.url));
const definition = protoLoader.loadSync('sheepfold/v1/arena.proto', {
  includeDirs: [PROTO_DIR],
  keepCase: true, // field names as in the .proto: decision_id, action_index
  longs: String, // uint64 decision ids stay exact
  enums: String,
  defaults: true,
  oneofs: true, // message.kind names the member of `oneof kind` that is set
});
const { Arena } = grpc.loadPackageDefinition(definition).sheepfold.v1;

const { SHEEPFOLD_SERVER: server = '127.0.0.1:50051', SHEEPFOLD_MATCH: matchId, SHEEPFOLD_TOKEN: token } = process.env;
if (!matchId || !token) {
  console.error('minimal-bot: set SHEEPFOLD_MATCH and SHEEPFOLD_TOKEN');
  process.exit(2);
}

const client = new Arena(server, grpc.credentials.createInsecure());
const call = client.Play();
let finished = false;

call.on('data', (message) => {
  switch (message.kind) {
    case 'joined':
      console.error(`joined ${message.joined.game} as seat ${message.joined.seat}`);
      break;
    case 'decision': {
      const { decision_id, actions } = message.decision;
      const active = actions.flatMap((legal, index) => (/^(pass|stop)\b/i.test(legal.label) ? [] : [index]));
      const choices = active.length ? active : actions.map((_, index) => index);
      const action_index = choices[Math.floor(Math.random() * choices.length)];
      call.write({ answer: { decision_id, action_index } });
      break;
    }
    case 'event':
      break; // message.event.text is a human sentence; message.event.event the typed form
    case 'error':
      console.error(`server refused an answer: code ${message.error.code}: ${message.error.message}`);
      break;
    case 'result':
      finished = true;
      console.log(JSON.stringify({ scores: message.result.scores, ranks: message.result.ranks }));
      call.end();
      break;
  }
});
call.on('error', (error) => {
  console.error(`minimal-bot: ${error.code} ${error.details}`);
  process.exitCode = 1;
});
call.on('status', () => {
  client.close();
  if (!finished) process.exitCode = 1;
});
call.write({ join: { match_id: matchId, token } });
