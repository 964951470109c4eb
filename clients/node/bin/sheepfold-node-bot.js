#!/usr/bin/env node
// Entry point: `node bin/sheepfold-node-bot.js --match ID --token TOKEN` (see --help).
import { main } from '../src/main.js';
import { hideIpServerNameWarning } from '../src/tls-flags.js';

hideIpServerNameWarning(); // it would come among the JSON log lines on stderr

main(process.argv.slice(2), process.env).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`sheepfold-node-bot: unexpected failure: ${error?.stack ?? error}\n`);
    process.exitCode = 1;
  },
);
